package dev.idempotency.requestid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import dev.idempotency.testsupport.RedisProvider;
import dev.idempotency.testsupport.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A node that runs Redis 6.2 while the store writes claims with {@code SET NX GET} (Redis 7), as one node of a cluster
 * in the middle of a rolling upgrade does after the version probe found 7: claims go on by script, never 503.
 */
class OlderNodeTests {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void aNodeWithoutSetNxGetIsClaimedByScript() {
        try (RedisServer older = RedisServer.start(RedisProvider.EMBEDDED)) {
            assertThat(older.version()).startsWith("6.2");
            RequestIdStore store = new RequestIdStore(
                    new RedisGateway(older.newConnectionFactory(), StoreListener.NONE),
                    null,
                    RequestIdStore.ClaimCommand.SET_NX_GET);
            assertThat(claim(store, "older:k1")).isInstanceOf(ClaimOutcome.Acquired.class);
            assertThat(claim(store, "older:k1")).isInstanceOf(ClaimOutcome.InProgress.class);
            assertThat(claim(store, "older:k2")).isInstanceOf(ClaimOutcome.Acquired.class);
        }
    }

    private static ClaimOutcome claim(RequestIdStore store, String key) {
        return Futures.join(store.claim(key, RequestRecord.NO_FINGERPRINT, LEASE));
    }
}
