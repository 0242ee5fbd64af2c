package dev.idempotency.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.CommandMonitor;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The round-trip floor over HTTP, on both stacks: token issue 1 (its quota included), token consume 1, first
 * {@code REQUEST_ID} call 2 (claim + complete), duplicate 1, lock 2 (acquire + release). Counted with {@code MONITOR}
 * on the application's own Redis connection, so that only the commands of the call are counted, whatever else talks
 * to the server meanwhile; each scenario runs once before it is counted, so that its scripts are loaded.
 */
@ParameterizedClass
@EnumSource(Stack.class)
class RoundTripHttpTests {

    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final String ORDER = "{\"item\":\"book\",\"quantity\":1}";
    private static final String ISSUE = "/idempotency/tokens?operation=POST%20/feedback";

    @Parameter
    Stack stack;

    private TestHttp http;
    private CommandMonitor monitor;
    private String client;

    @BeforeEach
    void setUp() throws Exception {
        http = new TestHttp(stack.port());
        stack.bean(ShopController.class).release();
        monitor = new CommandMonitor(TestRedis.SERVER);
        monitor.reset();
        String marker = "round-trip-probe-" + UUID.randomUUID();
        stack.bean(RedisIdempotency.class)
                .gateway()
                .call("probe", commands -> commands.echo(RedisGateway.bytes(marker)))
                .join();
        client = monitor.clientSending(marker);
    }

    @AfterEach
    void tearDown() throws Exception {
        monitor.close();
    }

    @Test
    void tokenIssueTakesOneRoundTripAndConsumeOne() {
        consume(issue());
        String token = issue();
        assertThat(roundTrips(this::issue, 1)).as("issue, the quota included").containsExactly("evalsha");
        assertThat(roundTrips(() -> consume(token), 1)).as("consume").containsExactly("evalsha");
    }

    @Test
    void firstRequestIdCallTakesTwoRoundTripsAndItsDuplicateOne() {
        order(UUID.randomUUID().toString());
        String key = UUID.randomUUID().toString();
        assertThat(roundTrips(() -> order(key), 2))
                .as("claim (SET NX GET), complete")
                .containsExactly("set", "evalsha");
        assertThat(roundTrips(() -> order(key), 1))
                .as("duplicate: the claim finds the record")
                .containsExactly("set");
    }

    @Test
    void lockTakesTwoRoundTrips() {
        reserve();
        assertThat(roundTrips(this::reserve, 2)).as("acquire, release").containsExactly("evalsha", "evalsha");
    }

    /**
     * The commands the application sent for {@code call}: waits (bounded) until it sent {@code expected} of them, as
     * some are sent after the response (a record's completion may follow the answer).
     */
    private List<String> roundTrips(Supplier<?> call, int expected) {
        monitor.reset();
        call.get();
        Await.until(
                DEADLINE,
                "the application sent " + expected + " commands",
                () -> monitor.roundTripsFrom(client).size() >= expected,
                () -> String.valueOf(monitor.roundTripsFrom(client)));
        return monitor.roundTripsFrom(client);
    }

    private String issue() {
        HttpResponse<String> issued = http.post(ISSUE, "");
        assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
        return issued.body().replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
    }

    private int consume(String token) {
        return status(http.post("/feedback", "{\"text\":\"fine\"}", "Idempotency-Token", token), 201);
    }

    private int order(String key) {
        return status(http.post("/orders", ORDER, "Idempotency-Key", key), 201);
    }

    private int reserve() {
        return status(http.post("/inventory/sku-" + UUID.randomUUID() + "/reserve", "{}"), 200);
    }

    private static int status(HttpResponse<String> response, int expected) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(expected);
        return response.statusCode();
    }
}
