package dev.idempotency.it;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.key.RedisKeys;
import java.util.Map;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** A LOCK handler whose lock is taken away while it works, as an expired lease or an operator would. */
@RestController
class LockLossController {

    private final RedisKeys keys;
    private final StringRedisTemplate redis;

    LockLossController(RedisKeys keys, StringRedisTemplate redis) {
        this.keys = keys;
        this.redis = redis;
    }

    @PostMapping("/lost/{sku}")
    @Idempotent(strategy = Strategy.LOCK, key = "#sku")
    public Map<String, Object> reserve(@PathVariable String sku) {
        redis.delete(keys.lock(sku)); // the lock is gone before the work ends
        return Map.of("sku", sku, "reserved", true);
    }
}
