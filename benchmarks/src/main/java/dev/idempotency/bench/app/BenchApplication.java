package dev.idempotency.bench.app;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application under load: the starter and endpoints that do the same work (echo a small JSON body) under different
 * protection. Spring MVC on Tomcat by default ({@link EchoController}, five endpoints); with
 * {@code --spring.main.web-application-type=reactive}, WebFlux on Netty ({@link ReactiveEchoController}, the same
 * endpoints but the hand-written one). Settings are defaults set here, so the module ships no {@code application.yml};
 * pass {@code --server.port=...} and {@code --spring.data.redis.port=...} on the command line.
 */
@SpringBootApplication
public class BenchApplication {

    /** Starts the bench app; every default below can be overridden with {@code --name=value}. */
    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(BenchApplication.class);
        application.setDefaultProperties(defaults());
        application.run(args);
    }

    static Map<String, Object> defaults() {
        Map<String, Object> defaults = new LinkedHashMap<>();
        defaults.put("spring.main.banner-mode", "off");
        defaults.put("spring.jmx.enabled", "false");
        defaults.put("spring.data.redis.host", "127.0.0.1");
        defaults.put("spring.data.redis.timeout", "2s");
        defaults.put("idempotency.scope", "none");
        defaults.put("logging.level.root", "WARN");
        defaults.put("logging.level.dev.idempotency.bench", "INFO");
        return defaults;
    }
}
