package dev.idempotency.it;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpEntity;
import org.springframework.web.bind.annotation.RestController;

/** Implements the generated interface; carries no annotations of its own. */
@RestController
class GeneratedController implements GeneratedApi {

    private final AtomicInteger runs = new AtomicInteger();

    @Override
    public Map<String, Object> create(Map<String, Object> order) {
        return Map.of("run", runs.incrementAndGet());
    }

    @Override
    public Map<String, Object> entity(HttpEntity<String> request) {
        return Map.of("run", runs.incrementAndGet());
    }
}
