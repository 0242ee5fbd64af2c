package dev.idempotency.it;

import dev.idempotency.Idempotent;
import java.util.Map;
import org.springframework.http.HttpEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

/** An API interface as OpenAPI generators write it: the mapping and {@code @RequestBody} live on the interface. */
public interface GeneratedApi {

    @PostMapping("/generated")
    @Idempotent
    Map<String, Object> create(@RequestBody Map<String, Object> order);

    @PostMapping("/entity")
    @Idempotent
    Map<String, Object> entity(HttpEntity<String> request);
}
