package dev.idempotency.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The sample shop. Without {@code spring.data.redis.host}, {@code port} or {@code url} it starts its own Redis (see
 * {@link dev.idempotency.sample.redis.LocalRedis}), so {@code java -jar} is all it needs.
 */
@SpringBootApplication
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
