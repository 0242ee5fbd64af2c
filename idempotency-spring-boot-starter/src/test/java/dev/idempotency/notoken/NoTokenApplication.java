package dev.idempotency.notoken;

import dev.idempotency.Idempotent;
import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** An application without TOKEN operations: it has no use for an endpoint that issues tokens. */
@SpringBootApplication
public class NoTokenApplication {

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                .csrf(csrf -> csrf.disable())
                .build();
    }

    @RestController
    static class Orders {

        @PostMapping("/orders")
        @Idempotent
        public Map<String, Object> create() {
            return Map.of("created", true);
        }
    }
}
