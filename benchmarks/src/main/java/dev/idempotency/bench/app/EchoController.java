package dev.idempotency.bench.app;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The same work (echo the body) behind every kind of protection the harness compares: none, a hand-written
 * {@code SET NX}, and the three {@code @Idempotent} strategies. Spring MVC only; {@link ReactiveEchoController} serves
 * the same endpoints in the WebFlux variant of the app.
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class EchoController {

    /** The hand-written claim's TTL, one day as the starter's default {@code request-id.ttl}. */
    private static final long HANDWRITTEN_TTL_SECONDS = 86_400;

    private final StringRedisTemplate redis;

    EchoController(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** No protection: the reference every other endpoint is compared with. */
    @PostMapping(EchoEndpoints.BASELINE)
    public Echo baseline(@RequestBody Echo body) {
        return body;
    }

    /**
     * What a team might write by hand: {@code SET key 1 NX EX 86400} and 409 when the key exists. No replay, no payload
     * check, no release on failure.
     */
    @PostMapping(EchoEndpoints.HANDWRITTEN)
    public ResponseEntity<Echo> handwritten(@RequestHeader("Idempotency-Key") String key, @RequestBody Echo body) {
        Boolean claimed =
                redis.opsForValue().setIfAbsent("handwritten:" + key, "1", HANDWRITTEN_TTL_SECONDS, TimeUnit.SECONDS);
        if (!Boolean.TRUE.equals(claimed)) {
            return ResponseEntity.status(HttpStatus.CONFLICT).build();
        }
        return ResponseEntity.ok(body);
    }

    /** {@code REQUEST_ID}: key from the {@code Idempotency-Key} header, response stored and replayed. */
    @PostMapping(EchoEndpoints.REQUEST_ID)
    @Idempotent
    public Echo requestId(@RequestBody Echo body) {
        return body;
    }

    /** {@code TOKEN}: consumes a one-time token from the {@code Idempotency-Token} header. */
    @PostMapping(EchoEndpoints.TOKEN)
    @Idempotent(strategy = Strategy.TOKEN)
    public Echo token(@RequestBody Echo body) {
        return body;
    }

    /** {@code LOCK}: a lease lock on the body's id for the duration of the call. */
    @PostMapping(EchoEndpoints.LOCK)
    @Idempotent(strategy = Strategy.LOCK, key = EchoEndpoints.LOCK_KEY)
    public Echo lock(@RequestBody Echo body) {
        return body;
    }
}
