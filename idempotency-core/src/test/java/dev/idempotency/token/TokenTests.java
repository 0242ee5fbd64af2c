package dev.idempotency.token;

import dev.idempotency.testsupport.RealRedis;
import dev.idempotency.testsupport.RedisCluster;
import dev.idempotency.testsupport.RedisServer;
import org.junit.jupiter.api.Nested;

@RealRedis
class TokenTests {

    @Nested
    class OnStandalone extends TokenContract {
        OnStandalone(RedisServer redis) {
            super(redis.newConnectionFactory());
        }
    }

    @Nested
    class OnCluster extends TokenContract {
        OnCluster(RedisCluster cluster) {
            super(cluster.newConnectionFactory());
        }
    }
}
