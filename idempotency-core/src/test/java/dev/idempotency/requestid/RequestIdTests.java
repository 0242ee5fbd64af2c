package dev.idempotency.requestid;

import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisServer;
import org.junit.jupiter.api.Nested;

@RealRedis
class RequestIdTests {

    @Nested
    class OnStandalone extends RequestIdContract {
        OnStandalone(RedisServer redis) {
            super(redis.newConnectionFactory());
        }
    }

    /** Claims by script, as on Redis 6.2, where {@code SET NX GET} is refused. */
    @Nested
    class OnStandaloneWithScriptClaims extends RequestIdContract {
        OnStandaloneWithScriptClaims(RedisServer redis) {
            super(redis.newConnectionFactory(), RequestIdStore.ClaimCommand.SCRIPT);
        }
    }

    @Nested
    class OnCluster extends RequestIdContract {
        OnCluster(RedisCluster cluster) {
            super(cluster.newConnectionFactory());
        }
    }
}
