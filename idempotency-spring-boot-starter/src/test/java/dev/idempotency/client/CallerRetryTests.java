package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.client.ServerLedger.Exchange;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.http.ResponseEntity;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.util.context.Context;
import reactor.util.retry.Retry;

/**
 * Callers that retry on their own (Spring Framework 7's {@code RetryTemplate} and {@code @Retryable}, Reactor's
 * {@code retryWhen}) with the client's own retries off: the key survives their retries only when it is bound to the
 * logical call, as {@link IdempotencyKeys} documents. The last test shows what happens when it is not.
 */
class CallerRetryTests {

    private static final Map<String, Object> ORDER = Map.of("item", "pen");
    private static final RetryTemplate RETRY = new RetryTemplate(
            RetryPolicy.builder().maxRetries(2).delay(Duration.ofMillis(20)).build());

    private static ServerLedger ledger;
    private static ClientApp.Proxied app;
    private static DroppingProxy proxy;
    private static ConfigurableApplicationContext client;
    private static RestClient orders;

    @BeforeAll
    static void start() throws IOException {
        ledger = OrderServer.ledger();
        app = ClientApp.throughProxy(
                builder -> builder.sources(RetryingCheckout.class).properties("idempotency.client.max-attempts=1"));
        proxy = app.proxy();
        client = app.context();
        orders = ClientApp.restClient(client);
    }

    @AfterAll
    static void stop() throws IOException {
        app.close();
    }

    @Test
    void retryTemplateWithAHeaderSetOncePerLogicalCall() {
        String key = IdempotencyKeys.newKey();

        List<Exchange> seen = lostFirstReply(() -> RETRY.invoke(() -> orders.post()
                .uri("/orders")
                .header("Idempotency-Key", key)
                .body(ORDER)
                .retrieve()
                .toEntity(String.class)));

        assertThat(seen).extracting(Exchange::key).containsExactly(key, key);
        assertThat(ledger.runs("orders", key)).isEqualTo(1);
    }

    @Test
    void retryTemplateInsideABoundKey() {
        List<Exchange> seen = lostFirstReply(() -> IdempotencyKeys.callWithNewKey(() -> RETRY.invoke(
                () -> orders.post().uri("/orders").body(ORDER).retrieve().toEntity(String.class))));

        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).key()).isNotNull().isEqualTo(seen.get(1).key());
        assertThat(ledger.runs("orders", seen.get(0).key())).isEqualTo(1);
    }

    @Test
    void retryableMethodInsideABoundKey() {
        Checkout checkout = client.getBean(Checkout.class);
        int attempts = checkout.attempts();

        List<Exchange> seen = lostFirstReply(() -> IdempotencyKeys.callWithNewKey(() -> checkout.placeOrder(ORDER)));

        assertThat(checkout.attempts()).as("@Retryable called the method again").isEqualTo(attempts + 2);
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).key()).isNotNull().isEqualTo(seen.get(1).key());
        assertThat(ledger.runs("orders", seen.get(0).key())).isEqualTo(1);
    }

    @Test
    void webClientRetryWhenWithTheKeyInTheReactorContext() {
        WebClient web = ClientApp.webClient(client);
        String key = IdempotencyKeys.newKey();

        List<Exchange> seen = lostFirstReply(() -> web.post()
                .uri("/orders")
                .bodyValue(ORDER)
                .retrieve()
                .toEntity(String.class)
                .retryWhen(
                        Retry.fixedDelay(2, Duration.ofMillis(20)).filter(WebClientRequestException.class::isInstance))
                .contextWrite(Context.of(IdempotencyKeys.CONTEXT_KEY, key))
                .block(Duration.ofSeconds(20)));

        assertThat(seen).extracting(Exchange::key).containsExactly(key, key);
        assertThat(ledger.runs("orders", key)).isEqualTo(1);
    }

    /** The hazard the others avoid: each caller retry is a new call with a new key, and the order is placed twice. */
    @Test
    void withoutABoundKeyEachCallerRetryIsANewRequest() {
        proxy.dropNextResponses(1);
        int before = ledger.exchanges("/orders").size();

        ResponseEntity<String> response = RETRY.invoke(
                () -> orders.post().uri("/orders").body(ORDER).retrieve().toEntity(String.class));

        List<Exchange> seen = ledger.exchanges("/orders")
                .subList(before, ledger.exchanges("/orders").size());
        assertThat(response.getHeaders().getFirst("Idempotent-Replayed")).isNull();
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).key()).isNotEqualTo(seen.get(1).key());
        assertThat(ledger.runs("orders", seen.get(0).key())
                        + ledger.runs("orders", seen.get(1).key()))
                .isEqualTo(2);
    }

    /** Makes the call with its first reply lost; checks it ended with the replay and returns what the server saw. */
    private static List<Exchange> lostFirstReply(Supplier<ResponseEntity<String>> call) {
        int dropped = proxy.dropped();
        proxy.dropNextResponses(1);
        int before = ledger.exchanges("/orders").size();

        ResponseEntity<String> response = call.get();

        assertThat(proxy.dropped()).as("the first reply was lost").isEqualTo(dropped + 1);
        assertThat(response.getStatusCode().value()).isEqualTo(201);
        assertThat(response.getHeaders().getFirst("Idempotent-Replayed")).isEqualTo("true");
        List<Exchange> all = ledger.exchanges("/orders");
        return all.subList(before, all.size());
    }

    /** A service that retries with {@code @Retryable}: each retry runs the method, and so the client call, anew. */
    static class Checkout {

        private final RestClient orders;
        private final AtomicInteger attempts = new AtomicInteger();

        Checkout(RestClient orders) {
            this.orders = orders;
        }

        @Retryable(includes = ResourceAccessException.class, maxRetries = 2, delay = 20)
        public ResponseEntity<String> placeOrder(Map<String, Object> order) {
            attempts.incrementAndGet();
            return orders.post().uri("/orders").body(order).retrieve().toEntity(String.class);
        }

        public int attempts() {
            return attempts.get();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableResilientMethods
    static class RetryingCheckout {

        @Bean
        Checkout checkout(RestClient.Builder builder, Environment environment) {
            return new Checkout(builder.baseUrl(environment.getRequiredProperty("client-tests.server-url"))
                    .build());
        }
    }
}
