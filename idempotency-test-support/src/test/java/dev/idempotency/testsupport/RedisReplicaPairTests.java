package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

@RealRedis
class RedisReplicaPairTests {

    @Test
    void replicaReceivesWritesAndAcceptsItsOwnAfterPromotion(RedisReplicaPair pair) {
        StringRedisTemplate master = new StringRedisTemplate(pair.master().newConnectionFactory());
        StringRedisTemplate replica = new StringRedisTemplate(pair.replica().newConnectionFactory());

        master.opsForValue().set("replicated", "yes");

        // Replication is asynchronous: the write shows up on the replica shortly after.
        Await.until(
                Duration.ofSeconds(5),
                "the write to reach the replica",
                () -> "yes".equals(replica.opsForValue().get("replicated")));
        assertThatThrownBy(() -> replica.opsForValue().set("direct", "no"))
                .isInstanceOf(DataAccessException.class)
                .rootCause()
                .hasMessageContaining("READONLY");

        pair.promoteReplica();
        replica.opsForValue().set("direct", "yes");
        assertThat(replica.opsForValue().get("direct")).isEqualTo("yes");
    }
}
