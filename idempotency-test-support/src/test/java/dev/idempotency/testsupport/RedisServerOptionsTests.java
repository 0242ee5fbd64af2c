package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

class RedisServerOptionsTests {

    private static final Duration SHORT_TIMEOUT = Duration.ofSeconds(1);

    @Test
    void durableServerKeepsWhatItAcknowledgedAcrossAKill() {
        try (RedisServer redis = RedisServer.builder().durable().start()) {
            LettuceConnectionFactory factory = redis.newConnectionFactory();
            try {
                StringRedisTemplate template = new StringRedisTemplate(factory);
                template.opsForValue().set("acknowledged", "yes", Duration.ofMinutes(5));
                redis.kill();
                redis.restart();
                assertThat(template.opsForValue().get("acknowledged"))
                        .as("a write acknowledged before SIGKILL, after the restart")
                        .isEqualTo("yes");
                assertThat(template.getExpire("acknowledged")).as("its TTL too").isPositive();
            } finally {
                factory.destroy();
            }
        }
    }

    @Test
    void tlsServerServesVerifiedTlsClientsAndNothingElse() throws IOException {
        try (RedisServer redis = RedisServer.builder().tls().start()) {
            StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
            template.opsForValue().set("secure", "yes");

            assertThat(template.opsForValue().get("secure")).isEqualTo("yes");
            assertThat(redis.isTls()).isTrue();
            assertThat(redis.name()).isEqualTo("tls");
            assertThat(redis.uri()).isEqualTo("rediss://127.0.0.1:" + redis.port());
            Path ca = redis.caCertificate().orElseThrow();
            assertThat(Files.readString(ca)).startsWith("-----BEGIN CERTIFICATE-----");
            // The admin client speaks TLS too.
            assertThat(redis.commandCalls("set")).isEqualTo(1);

            assertThatThrownBy(() -> ping(plainTextFactory(redis)))
                    .as("plain text on the TLS port")
                    .isInstanceOf(RedisConnectionFailureException.class);
            assertThat(rawPingAnswer(redis)).as("raw PING on the TLS port").doesNotContain("PONG");
            assertThatThrownBy(() -> ping(tlsWithJdkTrustStore(redis)))
                    .as("TLS without trusting the test CA")
                    .isInstanceOf(RedisConnectionFailureException.class);

            assertThat(redis.springProperties())
                    .containsExactly(
                            Map.entry("spring.data.redis.host", "127.0.0.1"),
                            Map.entry("spring.data.redis.port", Integer.toString(redis.port())),
                            Map.entry("spring.data.redis.ssl.enabled", "true"),
                            Map.entry("spring.data.redis.ssl.bundle", "redis-harness"),
                            Map.entry(
                                    "spring.ssl.bundle.pem.redis-harness.truststore.certificate",
                                    "file:" + ca.toAbsolutePath()));
        }
    }

    @Test
    void tlsServerCanBeKilledAndRestartedOnTheSamePort() {
        try (RedisServer redis = RedisServer.builder().tls().start()) {
            StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory(SHORT_TIMEOUT));
            template.opsForValue().set("before", "kill");
            int port = redis.port();

            redis.kill();
            assertThatThrownBy(() -> template.opsForValue().get("before")).isInstanceOf(DataAccessException.class);

            redis.restart();
            assertThat(redis.port()).isEqualTo(port);
            StringRedisTemplate fresh = new StringRedisTemplate(redis.newConnectionFactory());
            assertThat(fresh.opsForValue().get("before")).as("no persistence").isNull();
            Await.until(Duration.ofSeconds(10), "the old TLS connection to reconnect", () -> works(template));
            redis.flushAll();
            assertThat(fresh.opsForValue().get("probe")).isNull();
        }
    }

    @Test
    void aclUserRunsWhatItsRulesAllowAndNothingElse() {
        try (RedisServer redis = RedisServer.builder()
                .aclUser("app", "app-secret", "on >app-secret ~app:* -@all +get +set +ping +hello")
                .start()) {
            StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
            template.opsForValue().set("app:greeting", "hello");

            assertThat(template.opsForValue().get("app:greeting")).isEqualTo("hello");
            assertThatThrownBy(() -> template.opsForValue().set("elsewhere", "x"))
                    .as("a key outside ~app:*")
                    .isInstanceOf(DataAccessException.class)
                    .rootCause()
                    .hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> template.delete("app:greeting"))
                    .as("a command outside the rules")
                    .isInstanceOf(DataAccessException.class)
                    .rootCause()
                    .hasMessageContaining("NOPERM");

            // The harness itself stays the unrestricted default user.
            assertThat(redis.commandCalls("set")).isEqualTo(1);
            redis.flushAll();
            assertThat(template.opsForValue().get("app:greeting")).isNull();

            AclUser user = redis.aclUser().orElseThrow();
            assertThat(user.username()).isEqualTo("app");
            assertThat(user.password()).isEqualTo("app-secret");
            assertThat(redis.name()).isEqualTo("acl");
            assertThat(redis.springProperties())
                    .containsExactly(
                            Map.entry("spring.data.redis.host", "127.0.0.1"),
                            Map.entry("spring.data.redis.port", Integer.toString(redis.port())),
                            Map.entry("spring.data.redis.username", "app"),
                            Map.entry("spring.data.redis.password", "app-secret"));
        }
    }

    @Test
    void aclUserThatCannotLogInFailsTheStartWithItsRules() {
        assertThatThrownBy(() -> RedisServer.builder()
                        .aclUser("app", "right", "on >wrong ~* +@all")
                        .start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ACL user 'app' cannot log in")
                .hasMessageContaining("on >wrong ~* +@all");
    }

    @Test
    void invalidRulesFailTheStartWithTheServerLog() {
        assertThatThrownBy(() -> RedisServer.builder()
                        .aclUser("app", "secret", "on >secret +no-such-command")
                        .start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Unknown command or category name in ACL");
    }

    @Test
    void tlsAndAclCompose() {
        try (RedisServer redis = RedisServer.builder()
                .tls()
                .aclUser(Topologies.ACL_USERNAME, Topologies.ACL_PASSWORD, Topologies.ACL_RULES)
                .start()) {
            StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
            template.opsForValue().set("idempotency:both", "yes");

            assertThat(template.opsForValue().get("idempotency:both")).isEqualTo("yes");
            assertThatThrownBy(() -> template.opsForValue().get("other"))
                    .isInstanceOf(DataAccessException.class)
                    .rootCause()
                    .hasMessageContaining("NOPERM");
            assertThat(redis.name()).isEqualTo("tls+acl");
            assertThat(redis.springProperties())
                    .containsKeys(
                            "spring.data.redis.username",
                            "spring.data.redis.password",
                            "spring.data.redis.ssl.enabled",
                            "spring.data.redis.ssl.bundle");
        }
    }

    @Test
    void builderWithoutOptionsStartsAPlainServer() {
        try (RedisServer redis = RedisServer.builder().start()) {
            assertThat(redis.name()).isEqualTo("standalone");
            assertThat(redis.isTls()).isFalse();
            assertThat(redis.aclUser()).isEmpty();
            assertThat(redis.caCertificate()).isEmpty();
            assertThat(redis.springProperties())
                    .containsExactly(
                            Map.entry("spring.data.redis.host", redis.host()),
                            Map.entry("spring.data.redis.port", Integer.toString(redis.port())));
        }
    }

    private static void ping(LettuceConnectionFactory factory) {
        try {
            factory.getConnection().ping();
        } finally {
            factory.destroy();
        }
    }

    private static LettuceConnectionFactory plainTextFactory(RedisServer redis) {
        return started(new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(redis.host(), redis.port()),
                LettuceClientConfiguration.builder()
                        .commandTimeout(SHORT_TIMEOUT)
                        .build()));
    }

    private static LettuceConnectionFactory tlsWithJdkTrustStore(RedisServer redis) {
        return started(new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(redis.host(), redis.port()),
                LettuceClientConfiguration.builder()
                        .useSsl()
                        .and()
                        .commandTimeout(SHORT_TIMEOUT)
                        .build()));
    }

    private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /** Sends an inline PING in plain text and returns whatever comes back before the server hangs up. */
    private static String rawPingAnswer(RedisServer redis) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(redis.host(), redis.port()), 1_000);
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            return new String(in.readNBytes(64), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "(connection failed: " + e.getMessage() + ")";
        }
    }

    private static boolean works(StringRedisTemplate template) {
        try {
            template.opsForValue().set("probe", "1");
            return true;
        } catch (DataAccessException e) {
            return false;
        }
    }
}
