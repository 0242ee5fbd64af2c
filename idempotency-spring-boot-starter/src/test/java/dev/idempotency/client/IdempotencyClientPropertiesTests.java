package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.HttpMethod;

/** The defaults of the contract ({@code idempotency.client.*}) and binding of every key. */
class IdempotencyClientPropertiesTests {

    @Test
    void defaultsAreThoseOfTheContract() {
        IdempotencyClientProperties properties = new IdempotencyClientProperties();
        assertThat(properties.isEnabled()).isFalse();
        assertThat(properties.getHeader()).isEqualTo("Idempotency-Key");
        assertThat(properties.getMethods()).containsExactly(HttpMethod.POST, HttpMethod.PATCH);
        assertThat(properties.getMaxAttempts()).isEqualTo(3);
        assertThat(properties.getBackoff()).isEqualTo(Duration.ofMillis(200));
        assertThat(properties.getMaxBackoff()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void bindsEveryKey() {
        Map<String, String> source = Map.of(
                "idempotency.client.enabled", "true",
                "idempotency.client.header", "X-Request-Id",
                "idempotency.client.methods", "post,put,delete",
                "idempotency.client.max-attempts", "5",
                "idempotency.client.backoff", "50ms",
                "idempotency.client.max-backoff", "2s");
        IdempotencyClientProperties properties = new Binder(new MapConfigurationPropertySource(source))
                .bind("idempotency.client", IdempotencyClientProperties.class)
                .get();
        assertThat(properties.isEnabled()).isTrue();
        assertThat(properties.getHeader()).isEqualTo("X-Request-Id");
        assertThat(properties.getMethods()).containsExactly(HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE);
        assertThat(properties.getMaxAttempts()).isEqualTo(5);
        assertThat(properties.getBackoff()).isEqualTo(Duration.ofMillis(50));
        assertThat(properties.getMaxBackoff()).isEqualTo(Duration.ofSeconds(2));
    }
}
