package dev.idempotency.edges;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.UndecodableResultException;
import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.TestHttp;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.ScanOptions;

/**
 * A stored result that this version cannot decode (a deploy changed its type) never runs the work again in silence:
 * the duplicate gets a clear error (409 result-not-stored over HTTP) and {@code idempotency.results.undecodable}
 * counts it; {@code idempotency.request-id.undecodable-results: rerun} opts in to running it again.
 */
class UndecodableResultTests {

    /** What an earlier version stored: a quote as a bare string, which the record {@code Quote} cannot be read from. */
    private static final byte[] OLD_FORMAT = "\"quote 7, v1\"".getBytes(StandardCharsets.UTF_8);

    @Test
    void theDuplicateFailsClearlyAndIsCounted() {
        try (ConfigurableApplicationContext app = EdgeApplication.start(Stack.MVC)) {
            Quotes quotes = app.getBean(Quotes.class);
            String id = UUID.randomUUID().toString();
            quotes.quote(id);
            storedByAnEarlierVersion(app);

            assertThatThrownBy(() -> quotes.quote(id)).isInstanceOf(UndecodableResultException.class);
            HttpResponse<String> viaHttp = new TestHttp(EdgeApplication.port(app)).post("/edge/quotes/" + id, "");
            assertThat(viaHttp.statusCode()).isEqualTo(409);
            assertThat(viaHttp.body())
                    .contains("urn:idempotency:problem:result-not-stored", "cannot be read by this version");
            assertThat(quotes.runs()).as("the work ran once").isEqualTo(1);
            assertThat(app.getBean(MeterRegistry.class)
                            .get("idempotency.results.undecodable")
                            .counter()
                            .count())
                    .isEqualTo(2);
        }
    }

    @Test
    void rerunningIsOptIn() {
        try (ConfigurableApplicationContext app =
                EdgeApplication.start(Stack.MVC, "idempotency.request-id.undecodable-results=rerun")) {
            Quotes quotes = app.getBean(Quotes.class);
            String id = UUID.randomUUID().toString();
            quotes.quote(id);
            storedByAnEarlierVersion(app);

            assertThat(quotes.quote(id).run()).isEqualTo(2);
            assertThat(quotes.quote(id).run()).as("stored again, and replayed").isEqualTo(2);
        }
    }

    /** Rewrites the application's only stored result (its key prefix is its own) as an earlier version wrote it. */
    private static void storedByAnEarlierVersion(ConfigurableApplicationContext app) {
        String prefix = app.getEnvironment().getRequiredProperty("idempotency.key-prefix");
        try (RedisConnection redis = app.getBean(RedisConnectionFactory.class).getConnection()) {
            byte[] key;
            try (var keys = redis.keyCommands()
                    .scan(ScanOptions.scanOptions()
                            .match(prefix + "*request-id:*")
                            .build())) {
                key = keys.next();
                assertThat(keys.hasNext()).as("one record").isFalse();
            }
            byte[] record = redis.stringCommands().get(key);
            int head = 1 + 22; // the state, then the fingerprint (RequestRecord's layout)
            byte[] old = Arrays.copyOf(record, head + OLD_FORMAT.length);
            System.arraycopy(OLD_FORMAT, 0, old, head, OLD_FORMAT.length);
            redis.stringCommands().set(key, old);
        }
    }
}
