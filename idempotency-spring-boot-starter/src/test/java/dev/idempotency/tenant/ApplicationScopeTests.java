package dev.idempotency.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.idempotency.it.TestRedis;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * One {@link ScopeResolver} serves both stacks: an application's own resolver (here: callers grouped by the first
 * letter of their name) decides the scope on WebFlux too, where it is called with the caller's security context, and
 * is never replaced there by the configured principal scope.
 */
@ParameterizedClass
@EnumSource(
        value = WebApplicationType.class,
        names = {"SERVLET", "REACTIVE"})
class ApplicationScopeTests {

    @Parameter
    WebApplicationType stack;

    private ConfigurableApplicationContext app;

    /** Callers whose names start alike share a scope: alice and anna, not bob. */
    @Configuration(proxyBeanMethods = false)
    static class ByInitial {

        @Bean
        ScopeResolver byInitial() {
            return () -> {
                Authentication caller = SecurityContextHolder.getContext().getAuthentication();
                return caller == null ? null : "initial:" + caller.getName().charAt(0);
            };
        }
    }

    @AfterEach
    void close() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theApplicationsResolverDecidesTheScopeOnBothStacks() throws Exception {
        app = new SpringApplicationBuilder(TenantApplication.class, ByInitial.class)
                .web(stack)
                .properties(
                        "server.port=0",
                        "spring.data.redis.host=" + TestRedis.SERVER.host(),
                        "spring.data.redis.port=" + TestRedis.SERVER.port())
                .run();
        TenantApplication.Orders orders = app.getBean(TenantApplication.Orders.class);
        String key = UUID.randomUUID().toString();
        int before = orders.runs();
        HttpResponse<String> alice = order(key, "alice");
        HttpResponse<String> anna = order(key, "anna");
        HttpResponse<String> bob = order(key, "bob");
        assertThat(anna.headers().firstValue("Idempotent-Replayed"))
                .as("anna shares alice's scope by the application's rule")
                .hasValue("true");
        assertThat(anna.body()).isEqualTo(alice.body());
        assertThat(bob.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(orders.runs()).isEqualTo(before + 2);
        RedisKeys keys = app.getBean(RedisKeys.class);
        assertThat(app.getBean(StringRedisTemplate.class)
                        .hasKey(keys.requestId("initial:a", "POST /tenant/orders", key)))
                .isTrue();
    }

    private HttpResponse<String> order(String key, String user) throws Exception {
        TestHttp http = new TestHttp(app.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .subject(user)
                .claim("tenant_id", "acme")
                .expirationTime(Date.from(Instant.now().plusSeconds(300)))
                .build();
        SignedJWT token = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        token.sign(new MACSigner(TenantApplication.KEY.getEncoded()));
        return http.post("/tenant/orders", "", "Idempotency-Key", key, "Authorization", "Bearer " + token.serialize());
    }
}
