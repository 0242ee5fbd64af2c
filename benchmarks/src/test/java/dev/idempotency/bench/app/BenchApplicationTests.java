package dev.idempotency.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;

class BenchApplicationTests {

    @Test
    void startsSpringMvcByDefaultThoughWebFluxIsOnTheClassPath() {
        assertThat(new SpringApplication(BenchApplication.class).getWebApplicationType())
                .isEqualTo(WebApplicationType.SERVLET);
    }
}
