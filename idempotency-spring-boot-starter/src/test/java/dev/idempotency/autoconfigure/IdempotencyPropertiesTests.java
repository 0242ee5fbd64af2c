package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.unit.DataSize;

/** The defaults of the public contract (the configuration table of docs/guide/configuration.md), binding, and the startup checks. */
class IdempotencyPropertiesTests {

    @Test
    void defaultsAreThoseOfTheContract() {
        IdempotencyProperties properties = new IdempotencyProperties();
        assertThat(properties.isEnabled()).isTrue();
        assertThat(properties.getKeyPrefix()).isEqualTo("idempotency:");
        assertThat(properties.getNamespace())
                .as("defaults to spring.application.name")
                .isNull();
        assertThat(properties.getOnStoreFailure()).isEqualTo(IdempotencyProperties.StoreFailureMode.REJECT);
        assertThat(properties.getScope()).isEqualTo(IdempotencyProperties.KeyScope.PRINCIPAL);
        assertThat(properties.getRequestId().getHeader()).isEqualTo("Idempotency-Key");
        assertThat(properties.getRequestId().getTtl()).isEqualTo(Duration.ofHours(24));
        assertThat(properties.getRequestId().getLease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(properties.getRequestId().getWait()).isEqualTo(Duration.ZERO);
        assertThat(properties.getRequestId().isFingerprint()).isTrue();
        assertThat(properties.getRequestId().getMaxResponseSize()).isEqualTo(DataSize.ofMegabytes(1));
        assertThat(properties.getToken().getHeader()).isEqualTo("Idempotency-Token");
        assertThat(properties.getToken().getTtl()).isEqualTo(Duration.ofMinutes(10));
        assertThat(properties.getToken().getEndpoint().getEnabled())
                .as("unset: mapped only when a TOKEN operation exists")
                .isNull();
        assertThat(properties.getAnonymous()).isEqualTo(IdempotencyProperties.AnonymousMode.SHARED);
        assertThat(properties.getAdvisorOrder()).isEqualTo(Integer.MAX_VALUE - 1);
        assertThat(properties.getRequestId().getReplayedHeaders()).isEmpty();
        assertThat(properties.getToken().getEndpoint().getPath()).isEqualTo("/idempotency/tokens");
        assertThat(properties.getLock().getLease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(properties.getLock().getWait()).isEqualTo(Duration.ZERO);
        assertThat(properties.getRedis().getWaitForReplicas()).isZero();
        assertThat(properties.getRedis().getWaitForReplicasTimeout()).isEqualTo(Duration.ofMillis(200));
        assertThat(properties.getPolicies()).isEmpty();
    }

    @Test
    void bindsEveryKeyIncludingPolicies() {
        Map<String, String> source = Map.ofEntries(
                Map.entry("idempotency.enabled", "false"),
                Map.entry("idempotency.key-prefix", "shop:"),
                Map.entry("idempotency.namespace", "orders-svc"),
                Map.entry("idempotency.on-store-failure", "proceed"),
                Map.entry("idempotency.scope", "none"),
                Map.entry("idempotency.anonymous", "reject"),
                Map.entry("idempotency.advisor-order", "5"),
                Map.entry("idempotency.request-id.replayed-headers", "X-Request-Id,Link"),
                Map.entry("idempotency.request-id.header", "X-Request-Id"),
                Map.entry("idempotency.request-id.ttl", "2h"),
                Map.entry("idempotency.request-id.lease", "10s"),
                Map.entry("idempotency.request-id.wait", "1s"),
                Map.entry("idempotency.request-id.fingerprint", "false"),
                Map.entry("idempotency.request-id.max-response-size", "64KB"),
                Map.entry("idempotency.token.header", "X-Token"),
                Map.entry("idempotency.token.ttl", "5m"),
                Map.entry("idempotency.token.endpoint.enabled", "false"),
                Map.entry("idempotency.token.endpoint.path", "/tokens"),
                Map.entry("idempotency.lock.lease", "5s"),
                Map.entry("idempotency.lock.wait", "2s"),
                Map.entry("idempotency.policies.payments.ttl", "48h"),
                Map.entry("idempotency.policies.payments.on-store-failure", "proceed"),
                Map.entry("idempotency.policies.payments.fingerprint", "false"));
        IdempotencyProperties properties = new Binder(new MapConfigurationPropertySource(source))
                .bind("idempotency", IdempotencyProperties.class)
                .get();
        assertThat(properties.isEnabled()).isFalse();
        assertThat(properties.getKeyPrefix()).isEqualTo("shop:");
        assertThat(properties.getNamespace()).isEqualTo("orders-svc");
        assertThat(properties.getOnStoreFailure()).isEqualTo(IdempotencyProperties.StoreFailureMode.PROCEED);
        assertThat(properties.getScope()).isEqualTo(IdempotencyProperties.KeyScope.NONE);
        assertThat(properties.getRequestId().getHeader()).isEqualTo("X-Request-Id");
        assertThat(properties.getRequestId().getTtl()).isEqualTo(Duration.ofHours(2));
        assertThat(properties.getRequestId().getLease()).isEqualTo(Duration.ofSeconds(10));
        assertThat(properties.getRequestId().getWait()).isEqualTo(Duration.ofSeconds(1));
        assertThat(properties.getRequestId().isFingerprint()).isFalse();
        assertThat(properties.getRequestId().getMaxResponseSize()).isEqualTo(DataSize.ofKilobytes(64));
        assertThat(properties.getToken().getHeader()).isEqualTo("X-Token");
        assertThat(properties.getToken().getTtl()).isEqualTo(Duration.ofMinutes(5));
        assertThat(properties.getToken().getEndpoint().getEnabled()).isFalse();
        assertThat(properties.getAnonymous()).isEqualTo(IdempotencyProperties.AnonymousMode.REJECT);
        assertThat(properties.getAdvisorOrder()).isEqualTo(5);
        assertThat(properties.getRequestId().getReplayedHeaders()).containsExactly("X-Request-Id", "Link");
        assertThat(properties.getToken().getEndpoint().getPath()).isEqualTo("/tokens");
        assertThat(properties.getLock().getLease()).isEqualTo(Duration.ofSeconds(5));
        assertThat(properties.getLock().getWait()).isEqualTo(Duration.ofSeconds(2));
        IdempotencyProperties.Policy payments = properties.getPolicies().get("payments");
        assertThat(payments.getTtl()).isEqualTo(Duration.ofHours(48));
        assertThat(payments.getOnStoreFailure()).isEqualTo(IdempotencyProperties.StoreFailureMode.PROCEED);
        assertThat(payments.getFingerprint()).isFalse();
        assertThat(payments.getLease()).isNull();
    }

    @Test
    void zeroOrNegativeDurationsFailNamingTheProperty() {
        for (String[] bad : new String[][] {
            {"idempotency.token.ttl", "0s"},
            {"idempotency.request-id.ttl", "-1s"},
            {"idempotency.request-id.lease", "0ms"},
            {"idempotency.request-id.wait", "-5s"},
            {"idempotency.lock.lease", "0s"},
            {"idempotency.lock.wait", "-1ms"},
            {"idempotency.policies.payments.ttl", "0s"},
            {"idempotency.policies.payments.wait", "-1s"},
            {"idempotency.redis.wait-for-replicas", "-1"},
            {"idempotency.namespace", "orders svc:v2"}
        }) {
            IdempotencyProperties properties = new Binder(new MapConfigurationPropertySource(Map.of(bad[0], bad[1])))
                    .bind("idempotency", IdempotencyProperties.class)
                    .get();
            assertThatThrownBy(properties::afterPropertiesSet)
                    .as(bad[0])
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining(bad[0]);
        }
        IdempotencyProperties zeroWait = new IdempotencyProperties();
        zeroWait.getRequestId().setWait(Duration.ZERO);
        zeroWait.afterPropertiesSet(); // a zero wait is the default: answer 409 at once
    }
}
