package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/** The retry table, the waits (backoff, Retry-After in both forms, the cap) and the problem type, on a fixed clock. */
class RetryRulesTests {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    private final RetryRules rules =
            new RetryRules(new IdempotencyClientProperties(), Clock.fixed(NOW, ZoneOffset.UTC));

    @ParameterizedTest
    @CsvSource({
        "502, , true",
        "503, , true",
        "504, , true",
        "409, urn:idempotency:problem:request-in-progress, true",
        "409, urn:idempotency:problem:lock-busy, true",
        "409, urn:idempotency:problem:token-used, false",
        "409, urn:shop:problem:out-of-stock, false",
        "409, , false",
        "400, , false",
        "422, urn:idempotency:problem:payload-mismatch, false",
        "429, , false",
        "500, , false",
        "201, , false"
    })
    void retriesOnlyWhatALaterAttemptCanChange(int status, String problemType, boolean retryable) {
        assertThat(rules.retryable(status, problemType)).isEqualTo(retryable);
    }

    @Test
    void backoffDoublesUpToMaxBackoff() {
        assertThat(rules.delay(1, null)).isEqualTo(Duration.ofMillis(200));
        assertThat(rules.delay(2, null)).isEqualTo(Duration.ofMillis(400));
        assertThat(rules.delay(5, null)).isEqualTo(Duration.ofMillis(3200));
        assertThat(rules.delay(6, null)).isEqualTo(Duration.ofSeconds(5));
        assertThat(rules.delay(500, null)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void retryAfterInSecondsOrAsADateWinsOverTheBackoffUpToTheCap() {
        assertThat(rules.delay(1, "1")).isEqualTo(Duration.ofSeconds(1));
        assertThat(rules.delay(3, " 2 ")).isEqualTo(Duration.ofSeconds(2));
        assertThat(rules.delay(1, "0")).isZero();
        assertThat(rules.delay(1, "Tue, 01 Dec 2026 10:00:03 GMT")).isEqualTo(Duration.ofSeconds(3));
        assertThat(rules.delay(1, "Tue, 01 Dec 2026 09:59:00 GMT"))
                .as("in the past")
                .isZero();
        assertThat(rules.delay(1, "120")).as("capped").isEqualTo(Duration.ofSeconds(5));
        assertThat(rules.delay(1, "99999999999999999999999")).isEqualTo(Duration.ofSeconds(5));
        assertThat(rules.delay(2, "soon")).as("unreadable: the backoff").isEqualTo(Duration.ofMillis(400));
    }

    @Test
    void readsTheProblemTypeOfJson409sOnly() {
        assertThat(rules.needsProblemType(409, MediaType.APPLICATION_PROBLEM_JSON))
                .isTrue();
        assertThat(rules.needsProblemType(409, MediaType.APPLICATION_JSON)).isTrue();
        assertThat(rules.needsProblemType(409, MediaType.TEXT_HTML)).isFalse();
        assertThat(rules.needsProblemType(409, null)).isFalse();
        assertThat(rules.needsProblemType(503, MediaType.APPLICATION_PROBLEM_JSON))
                .isFalse();
        assertThat(rules.problemType(bytes("{\"type\":\"urn:idempotency:problem:lock-busy\",\"status\":409}")))
                .isEqualTo("urn:idempotency:problem:lock-busy");
        assertThat(rules.problemType(bytes("{\"type\":42}"))).isNull();
        assertThat(rules.problemType(bytes("{\"title\":\"no type\"}"))).isNull();
        assertThat(rules.problemType(bytes("<html>"))).isNull();
        assertThat(rules.problemType(new byte[0])).isNull();
    }

    @Test
    void ioErrorsAreRetriedUnlessNoRetryCanHealThem() {
        assertThat(rules.retryable(new SocketTimeoutException("Read timed out")))
                .isTrue();
        assertThat(rules.retryable(new IOException("Connection reset"))).isTrue();
        assertThat(rules.retryable(new IOException("wrapped", new UnknownHostException("nowhere"))))
                .isFalse();
        assertThat(rules.retryable(new SSLHandshakeException("bad certificate")))
                .isFalse();
    }

    @Test
    void keysPostAndPatchToListedHostsAndRetriesOnlyThose() {
        IdempotencyClientProperties properties = new IdempotencyClientProperties();
        properties.setHosts(Set.of("orders.internal", "*.Payments.svc"));
        RetryRules listed = new RetryRules(properties, Clock.fixed(NOW, ZoneOffset.UTC));
        URI orders = URI.create("https://ORDERS.internal:8443/orders");
        assertThat(listed.keys(HttpMethod.POST, orders)).isTrue();
        assertThat(listed.keys(HttpMethod.PATCH, orders)).isTrue();
        assertThat(listed.keys(HttpMethod.PUT, orders)).isFalse();
        assertThat(listed.keys(HttpMethod.GET, orders)).isFalse();
        assertThat(listed.retries(orders)).isTrue();
        assertThat(listed.retries(URI.create("http://eu.payments.svc/charges"))).isTrue();
        assertThat(listed.retries(URI.create("http://payments.svc/charges")))
                .as("*. covers subdomains only")
                .isFalse();
        URI elsewhere = URI.create("https://api.stripe.example/v1/charges");
        assertThat(listed.keys(HttpMethod.POST, elsewhere)).isFalse();
        assertThat(listed.retries(elsewhere)).isFalse();
        properties.setKeyOtherHosts(true);
        RetryRules keyingAll = new RetryRules(properties, Clock.fixed(NOW, ZoneOffset.UTC));
        assertThat(keyingAll.keys(HttpMethod.POST, elsewhere)).isTrue();
        assertThat(keyingAll.retries(elsewhere)).as("a key, never a retry").isFalse();
        assertThat(rules.retries(orders))
                .as("no host listed: nothing is retried")
                .isFalse();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
