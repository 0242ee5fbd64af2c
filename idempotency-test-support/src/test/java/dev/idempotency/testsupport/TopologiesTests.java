package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The way contract suites use {@link Topologies}: one class, run once per topology. */
@ParameterizedClass
@EnumSource(Topologies.class)
class TopologiesTests {

    @Parameter
    Topologies topology;

    // Shared topologies are never flushed; the ACL user may only touch keys under idempotency:.
    private final String prefix = "idempotency:test:" + UUID.randomUUID() + ":";

    @Test
    void writesAndReadsThroughAConnectionFactory() {
        StringRedisTemplate template = new StringRedisTemplate(topology.newConnectionFactory());
        long setsBefore = topology.commandCalls("set");

        template.opsForValue().set(prefix + "greeting", "hello");

        assertThat(template.opsForValue().get(prefix + "greeting")).isEqualTo("hello");
        assertThat(topology.commandCalls("set")).isGreaterThan(setsBefore);
    }

    @Test
    void springBootConnectsWithTheSpringProperties() {
        Map<String, Object> properties = new HashMap<>(topology.springProperties());
        properties.put("spring.main.banner-mode", "off");

        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(BootRedis.class)
                .web(WebApplicationType.NONE)
                .properties(properties)
                .run()) {
            StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
            template.opsForValue().set(prefix + "from-boot", "yes");

            assertThat(template.opsForValue().get(prefix + "from-boot")).isEqualTo("yes");
        }
        assertThat(new StringRedisTemplate(topology.newConnectionFactory())
                        .opsForValue()
                        .get(prefix + "from-boot"))
                .isEqualTo("yes");
    }

    @Test
    void startsOncePerJvmAndNamesItself() {
        assertThat(topology.topology()).isSameAs(topology.topology());
        // toString() gives the parameterized test names, e.g. "[4] tls".
        assertThat(topology).hasToString(topology.name().toLowerCase(Locale.ROOT));
        assertThat(topology.topology().name()).isEqualTo(topology.toString());
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({SslAutoConfiguration.class, DataRedisAutoConfiguration.class})
    static class BootRedis {}
}
