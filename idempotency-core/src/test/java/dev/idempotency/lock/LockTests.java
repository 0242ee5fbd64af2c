package dev.idempotency.lock;

import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisServer;
import org.junit.jupiter.api.Nested;

@RealRedis
class LockTests {

    @Nested
    class OnStandalone extends LockContract {
        OnStandalone(RedisServer redis) {
            super(redis.newConnectionFactory());
        }
    }

    @Nested
    class OnCluster extends LockContract {
        OnCluster(RedisCluster cluster) {
            super(cluster.newConnectionFactory());
        }
    }
}
