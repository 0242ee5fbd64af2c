package dev.idempotency.support;

import dev.idempotency.key.RedisKeys;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Base of the contract suites that run against every Redis setup (standalone, cluster): a connection, the gateway and
 * a key prefix of its own so suites never see each other's records on a shared server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RedisContract {

    protected final RedisConnectionFactory connectionFactory;
    protected final RedisGateway redis;
    protected final RedisKeys keys;
    protected final LeaseRenewer renewer = new LeaseRenewer();

    protected RedisContract(RedisConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
        this.redis = new RedisGateway(connectionFactory);
        this.keys = new RedisKeys("test:" + UUID.randomUUID() + ":");
    }

    @AfterAll
    void closeRenewer() {
        renewer.close();
    }

    /** Remaining time to live of a key in milliseconds, as Redis reports it (-2 when absent). */
    protected long pttl(String key) {
        Long pttl = redis.command("test", connection -> connection.keyCommands().pTtl(RedisGateway.key(key)));
        return pttl == null ? -2 : pttl;
    }

    protected boolean exists(String key) {
        return pttl(key) != -2;
    }

    protected void delete(String key) {
        redis.command("test", connection -> connection.keyCommands().del(RedisGateway.key(key)));
    }
}
