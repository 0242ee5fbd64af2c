package dev.idempotency.client;

import dev.idempotency.testsupport.RedisServer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The server the client tests call: {@code @Idempotent} endpoints on a real port and a real Redis, with a filter in
 * front of everything that records each exchange in the {@link ServerLedger}. Started once per test JVM.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(OrderController.class)
class OrderServer {

    private static final RedisServer REDIS = RedisServer.start();
    private static ConfigurableApplicationContext shared;

    /** The running server (started on first use). */
    static synchronized ConfigurableApplicationContext shared() {
        if (shared == null) {
            shared = new SpringApplicationBuilder(OrderServer.class)
                    .web(WebApplicationType.SERVLET)
                    .properties(
                            "spring.config.name=client-tests-server",
                            "spring.main.banner-mode=off",
                            "server.port=0",
                            "spring.data.redis.host=" + REDIS.host(),
                            "spring.data.redis.port=" + REDIS.port(),
                            "spring.data.redis.timeout=2s")
                    .run();
        }
        return shared;
    }

    static int port() {
        return ((WebServerApplicationContext) shared()).getWebServer().getPort();
    }

    static ServerLedger ledger() {
        return shared().getBean(ServerLedger.class);
    }

    @Bean
    ServerLedger serverLedger() {
        return new ServerLedger();
    }

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                .csrf(csrf -> csrf.disable())
                .build();
    }

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> exchangeRecorder(ServerLedger ledger) {
        FilterRegistrationBean<OncePerRequestFilter> registration =
                new FilterRegistrationBean<>(new OncePerRequestFilter() {
                    @Override
                    protected void doFilterInternal(
                            HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                            throws ServletException, IOException {
                        ServerLedger.Received received = ledger.received(
                                request.getMethod(), request.getRequestURI(), request.getHeader("Idempotency-Key"));
                        try {
                            chain.doFilter(request, response);
                        } finally {
                            ledger.answered(received, response.getStatus());
                        }
                    }
                });
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }
}
