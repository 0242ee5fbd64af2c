package dev.idempotency.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.redis.RedisIdempotency;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.testsupport.Dedicated;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** With Redis gone, every strategy fails with one exception type and runs nothing; once Redis is back, all works. */
@RealRedis
class StoreUnavailableTests {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void everyStrategyFailsClosedWhileRedisIsDownAndRecoversAfter(@Dedicated RedisServer server) {
        AtomicInteger runs = new AtomicInteger();
        try (RedisIdempotency idempotency = RedisIdempotency.builder(
                        server.newConnectionFactory(Duration.ofMillis(500)))
                .build()) {
            RedisKeys keys = idempotency.keys();
            LeaseLockManager locks = idempotency.locks();
            RequestIdExecutor executor = idempotency.requestIds();
            TokenExecutor tokens = idempotency.tokens();
            RequestIdCall call = new RequestIdCall(keys.requestId("", "op", "k"), null, MINUTE, MINUTE, Duration.ZERO);
            String token = tokens.issue("", "submit", MINUTE).token();

            server.stop();

            assertThatThrownBy(() -> executor.execute(call, runs::incrementAndGet, intCodec()))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class);
            assertThatThrownBy(() -> tokens.consume("", "submit", token))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class);
            assertThatThrownBy(() -> locks.callLocked("sku", MINUTE, Duration.ZERO, runs::incrementAndGet))
                    .isInstanceOf(IdempotencyStoreUnavailableException.class)
                    .satisfies(ex -> assertThat(((IdempotencyStoreUnavailableException) ex).retryAfter())
                            .isPositive());
            assertThat(runs).as("nothing ran unprotected").hasValue(0);

            server.restart();
            // Lettuce reconnects with a growing backoff: wait (bounded) until the connection is back.
            Race.until(Duration.ofSeconds(60), "the application's connection to reconnect", () -> reachable(tokens));

            assertThat(executor.execute(call, runs::incrementAndGet, intCodec()))
                    .isEqualTo(1);
            assertThat(locks.callLocked("sku", MINUTE, Duration.ZERO, runs::incrementAndGet))
                    .isEqualTo(2);
        }
    }

    private static boolean reachable(TokenExecutor tokens) {
        try {
            tokens.issue("", "submit", MINUTE);
            return true;
        } catch (IdempotencyStoreUnavailableException ex) {
            return false;
        }
    }

    private static ResultCodec<Integer> intCodec() {
        return new ResultCodec<>() {
            @Override
            public byte[] encode(Integer result) {
                return ResultCodec.utf8().encode(result.toString());
            }

            @Override
            public Integer decode(byte[] stored) {
                return Integer.valueOf(ResultCodec.utf8().decode(stored));
            }
        };
    }
}
