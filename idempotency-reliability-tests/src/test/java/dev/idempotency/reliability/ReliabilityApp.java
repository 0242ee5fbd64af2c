package dev.idempotency.reliability;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The application under test: the starter with Spring MVC, one endpoint per strategy, each counting how often its body
 * really ran per key. Started in-process by {@link App}, or as a separate JVM by {@link #main} (the crash scenario).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ReliabilityApp.Endpoints.class)
public class ReliabilityApp {

    public static void main(String[] args) {
        new SpringApplicationBuilder(ReliabilityApp.class).run(args);
    }

    /** {@code X-User: alice} authenticates the request as alice (what Spring Security would do, without its weight). */
    @Bean
    OncePerRequestFilter userHeaderFilter() {
        return new OncePerRequestFilter() {
            @Override
            protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                    throws ServletException, IOException {
                String user = request.getHeader("X-User");
                if (user == null) {
                    chain.doFilter(request, response);
                    return;
                }
                Principal principal = () -> user;
                chain.doFilter(
                        new HttpServletRequestWrapper(request) {
                            @Override
                            public Principal getUserPrincipal() {
                                return principal;
                            }
                        },
                        response);
            }
        };
    }

    /** The protected endpoints. Methods are public: {@code @Idempotent} applies through the Spring proxy. */
    @RestController
    public static class Endpoints {

        private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
        private final AtomicInteger total = new AtomicInteger();
        private final boolean block;
        private final CountDownLatch never = new CountDownLatch(1);

        /** @param block whether {@code /slow} and {@code /stock} hold their caller (the JVM that gets killed) */
        public Endpoints(@Value("${reliability.block:false}") boolean block) {
            this.block = block;
        }

        /** How often the body of {@code endpoint} ran for {@code key}. */
        public int executions(String endpoint, String key) {
            AtomicInteger count = executions.get(endpoint + ":" + key);
            return count == null ? 0 : count.get();
        }

        /** How often any protected body ran. */
        public int totalExecutions() {
            return total.get();
        }

        private int count(String endpoint, String key) {
            total.incrementAndGet();
            return executions
                    .computeIfAbsent(endpoint + ":" + key, k -> new AtomicInteger())
                    .incrementAndGet();
        }

        private void holdIfBlocking() {
            if (block) {
                try {
                    never.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @GetMapping("/ping")
        public String ping() {
            return "pong";
        }

        @PostMapping("/orders")
        @Idempotent
        @ResponseStatus(HttpStatus.CREATED)
        public Map<String, Object> order(
                @RequestHeader(name = "Idempotency-Key", required = false) String key,
                @RequestBody Map<String, Object> order) {
            return Map.of("run", count("orders", key), "order", order);
        }

        @PostMapping("/slow")
        @Idempotent
        @ResponseStatus(HttpStatus.CREATED)
        public Map<String, Object> slow(@RequestHeader(name = "Idempotency-Key", required = false) String key) {
            int run = count("slow", key);
            holdIfBlocking();
            return Map.of("run", run);
        }

        @PostMapping("/stock/{sku}")
        @Idempotent(strategy = Strategy.LOCK, key = "#sku")
        public Map<String, Object> reserve(@PathVariable String sku) {
            int run = count("stock", sku);
            holdIfBlocking();
            return Map.of("sku", sku, "run", run);
        }

        @PostMapping("/feedback")
        @Idempotent(strategy = Strategy.TOKEN)
        @ResponseStatus(HttpStatus.CREATED)
        public Map<String, Object> feedback(
                @RequestHeader(name = "Idempotency-Token", required = false) String token,
                @RequestBody Map<String, Object> feedback) {
            return Map.of("saved", count("feedback", token));
        }

        @PostMapping("/large")
        @Idempotent
        public String large(
                @RequestHeader(name = "Idempotency-Key", required = false) String key, @RequestParam int size) {
            int run = count("large", key);
            StringBuilder body = new StringBuilder(size);
            body.append(run).append(':');
            while (body.length() < size) {
                body.append('x');
            }
            return body.substring(0, size);
        }
    }
}
