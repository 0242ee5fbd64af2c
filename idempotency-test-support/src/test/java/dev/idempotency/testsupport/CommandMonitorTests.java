package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

@RealRedis
class CommandMonitorTests {

    private static final RedisScript<String> SET_THEN_GET =
            RedisScript.of("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])", String.class);

    @Test
    void tellsRoundTripsFromCommandsInsideScripts(@Dedicated RedisServer redis) throws Exception {
        StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
        // Connects and loads the script, so that only the steady-state commands are recorded below.
        template.execute(SET_THEN_GET, List.of("warm"), "up");

        try (CommandMonitor monitor = new CommandMonitor(redis.host(), redis.port())) {
            monitor.reset();
            template.opsForValue().set("a", "1");
            template.opsForValue().get("a");
            template.execute(SET_THEN_GET, List.of("b"), "2");

            assertThat(monitor.roundTrips()).containsExactly("set", "get", "evalsha");
            assertThat(monitor.scriptCommands()).containsExactly("set", "get");
            assertThat(monitor.executed()).containsExactly("set", "get", "evalsha", "set", "get");
            assertThat(monitor.lines()).anySatisfy(line -> assertThat(line).contains("[0 lua]", "\"b\""));

            monitor.reset();
            assertThat(monitor.executed()).isEmpty();
        }
    }

    @Test
    void tellsOrLeavesOutAClientByItsAddress(@Dedicated RedisServer redis) throws Exception {
        StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
        template.opsForValue().set("warm", "up");

        try (CommandMonitor monitor = new CommandMonitor(redis);
                Socket probe = new Socket(redis.host(), redis.port())) {
            monitor.reset();
            template.opsForValue().set("key", "value");
            probe.getOutputStream().write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = probe.getInputStream();
            assertThat(new String(in.readNBytes(7), StandardCharsets.US_ASCII)).isEqualTo("+PONG\r\n");
            monitor.sync();

            assertThat(monitor.commands(false, probe.getLocalPort())).containsExactly("set");
            assertThat(monitor.commands(false, -1)).containsExactly("set", "ping");

            String client = monitor.clientSending("value");
            assertThat(client).doesNotEndWith(":" + probe.getLocalPort()).startsWith(redis.host() + ":");
            assertThat(monitor.roundTripsFrom(client))
                    .as("the template's connection only")
                    .containsExactly("set");
            assertThat(monitor.roundTripsFrom(redis.host() + ":" + probe.getLocalPort()))
                    .containsExactly("ping");
            assertThatThrownBy(() -> monitor.clientSending("never sent")).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void monitorsATlsServer() throws Exception {
        try (RedisServer redis = RedisServer.builder().tls().start()) {
            StringRedisTemplate template = new StringRedisTemplate(redis.newConnectionFactory());
            template.opsForValue().set("warm", "up");

            try (CommandMonitor monitor = new CommandMonitor(redis)) {
                monitor.reset();
                template.opsForValue().set("secure", "yes");

                assertThat(monitor.roundTrips()).containsExactly("set");
            }
        }
    }

    @Test
    void failsToStartWhereMonitorIsRefused() {
        try (RedisServer redis = RedisServer.builder().tls().start()) {
            assertThatThrownBy(() -> new CommandMonitor(redis.host(), redis.port()))
                    .as("plain text against a TLS port")
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("MONITOR did not start");
        }
    }
}
