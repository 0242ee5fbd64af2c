package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;

class ProviderTests {

    @AfterEach
    void clearProperty() {
        System.clearProperty(RedisProvider.PROPERTY);
        System.clearProperty(RedisBinary.PROPERTY);
    }

    @Test
    void bundledBinaryServesEveryFeatureOfTheProcessProviderWithoutThePath() {
        System.setProperty(RedisBinary.PROPERTY, "bundled");
        assertThat(RedisBinary.source()).contains("bundled org.signal:embedded-redis");
        // TLS and an ACL user at once: the bundled binary is built with TLS, and the certificates come from keytool.
        try (RedisServer redis = RedisServer.builder()
                .tls()
                .aclUser(Topologies.ACL_USERNAME, Topologies.ACL_PASSWORD, Topologies.ACL_RULES)
                .start()) {
            StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
            template.opsForValue().set("idempotency:k", "v");

            assertThat(template.opsForValue().get("idempotency:k")).isEqualTo("v");
            assertThat(redis.provider()).isEqualTo(RedisProvider.PROCESS);
            assertThat(redis.version()).isEqualTo(RedisBinary.BUNDLED_VERSION);
            assertThat(redis.isTls()).isTrue();
            redis.pause();
            redis.resume();
            assertThat(template.opsForValue().get("idempotency:k")).isEqualTo("v");
        }
    }

    @Test
    void rejectsAnUnknownBinaryChoice() {
        System.setProperty(RedisBinary.PROPERTY, "docker");
        assertThatThrownBy(RedisBinary::server)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'docker'")
                .hasMessageContaining("auto, path, bundled");
    }

    @Test
    void parsesProviderNamesAndRejectsUnknownOnes() {
        System.setProperty(RedisProvider.PROPERTY, " Embedded ");
        assertThat(RedisProvider.configured()).isEqualTo(RedisProvider.EMBEDDED);

        System.setProperty(RedisProvider.PROPERTY, "docker");
        assertThatThrownBy(RedisProvider::configured)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'docker'")
                .hasMessageContaining("auto, process, testcontainers, embedded");
    }

    @Test
    void clusterAndReplicaPairRefuseProvidersOtherThanProcess() {
        System.setProperty(RedisProvider.PROPERTY, "testcontainers");

        assertThatThrownBy(RedisCluster::start)
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("'process'");
        assertThatThrownBy(RedisReplicaPair::start).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void embeddedProviderRunsTheBundledRedisWithoutFaultInjection() {
        try (RedisServer redis = RedisServer.start(RedisProvider.EMBEDDED)) {
            StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
            template.opsForValue().set("k", "v");

            assertThat(template.opsForValue().get("k")).isEqualTo("v");
            assertThat(redis.provider()).isEqualTo(RedisProvider.EMBEDDED);
            assertThat(redis.version()).startsWith("6.2");
            assertThatThrownBy(redis::pause)
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("'embedded'");
        }
    }

    @Test
    void parsesCommandStats() {
        String info = "# Commandstats\r\n"
                + "cmdstat_get:calls=3,usec=12,usec_per_call=4.00,rejected_calls=0,failed_calls=0\r\n"
                + "cmdstat_config|resetstat:calls=1,usec=5,usec_per_call=5.00,rejected_calls=0,failed_calls=0\r\n";

        assertThat(AdminClient.parseCommandStats(info)).isEqualTo(Map.of("get", 3L, "config|resetstat", 1L));
    }
}
