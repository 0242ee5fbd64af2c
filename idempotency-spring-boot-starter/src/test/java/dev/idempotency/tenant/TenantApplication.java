package dev.idempotency.tenant;

import dev.idempotency.Idempotent;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A multi-tenant resource server: callers send a JWT signed with a shared HMAC key, and {@code idempotency.scope:
 * tenant} scopes keys by its {@code tenant_id} claim. Runs on Spring MVC or WebFlux.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({TenantApplication.Orders.class, TenantApplication.Servlet.class, TenantApplication.Reactive.class})
public class TenantApplication {

    static final SecretKey KEY = new SecretKeySpec(
            "a-test-key-of-at-least-256-bits-for-hmac-sha-256!".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            "HmacSHA256");

    @RestController
    public static class Orders {

        final AtomicInteger runs = new AtomicInteger();

        public int runs() {
            return runs.get();
        }

        @PostMapping("/tenant/orders")
        @Idempotent
        public Map<String, Object> create() {
            return Map.of("run", runs.incrementAndGet());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class Servlet {

        @Bean
        SecurityFilterChain security(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                    .oauth2ResourceServer(server -> server.jwt(Customizer.withDefaults()))
                    .csrf(csrf -> csrf.disable())
                    .build();
        }

        @Bean
        JwtDecoder jwtDecoder() {
            return NimbusJwtDecoder.withSecretKey(KEY).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class Reactive {

        @Bean
        SecurityWebFilterChain security(ServerHttpSecurity http) {
            return http.authorizeExchange(exchanges -> exchanges.anyExchange().authenticated())
                    .oauth2ResourceServer(server -> server.jwt(Customizer.withDefaults()))
                    .csrf(ServerHttpSecurity.CsrfSpec::disable)
                    .build();
        }

        @Bean
        ReactiveJwtDecoder jwtDecoder() {
            return NimbusReactiveJwtDecoder.withSecretKey(KEY).build();
        }

        @Bean
        ReactorResourceFactory reactorResourceFactory() {
            ReactorResourceFactory resources = new ReactorResourceFactory();
            resources.setUseGlobalResources(false); // see ContractApplication
            return resources;
        }
    }
}
