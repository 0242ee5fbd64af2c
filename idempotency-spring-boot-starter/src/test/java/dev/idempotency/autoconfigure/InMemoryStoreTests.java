package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.IdempotencyStore;
import dev.idempotency.Idempotent;
import dev.idempotency.LockBusyException;
import dev.idempotency.Strategy;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.diagnostics.RedisDiagnostics;
import dev.idempotency.lock.LeaseLockManager;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.memory.InMemoryIdempotency;
import dev.idempotency.token.TokenExecutor;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * {@code idempotency.store: in-memory}: the starter sets itself up without any {@code RedisConnectionFactory}, warns that it protects nothing across instances, and never opens a
 * connection to a Redis that Spring Boot configured anyway.
 */
@ExtendWith(OutputCaptureExtension.class)
class InMemoryStoreTests {

    /** A port that counts who connects to it: a Redis client would. */
    private static final CountingPort REDIS_PORT = new CountingPort();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    AopAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class,
                    IdempotencyMisconfigurationAutoConfiguration.class))
            .withPropertyValues("idempotency.store=in-memory")
            .withBean(Orders.class);

    @AfterAll
    static void closePort() throws IOException {
        REDIS_PORT.close();
    }

    /** The lock manager of the running context, for {@link Orders#reserve}. */
    private static final AtomicReference<LeaseLockManager> LOCKS = new AtomicReference<>();

    /** A bean with all three strategies. */
    static class Orders {

        private final AtomicInteger runs = new AtomicInteger();

        /** Read through a method: the test holds the proxy, whose own fields are never set. */
        public int runs() {
            return runs.get();
        }

        @Idempotent(key = "#id")
        public int create(String id) {
            return runs.incrementAndGet();
        }

        @Idempotent(strategy = Strategy.TOKEN, key = "#token", operation = "checkout")
        public int checkout(String token) {
            return runs.incrementAndGet();
        }

        /** While this call holds the lock, another caller finds it busy. */
        @Idempotent(strategy = Strategy.LOCK, key = "#sku")
        public int reserve(String sku) {
            CompletableFuture<Throwable> other = CompletableFuture.supplyAsync(() -> {
                try {
                    LOCKS.get()
                            .acquire(sku, Duration.ofSeconds(30), Duration.ZERO)
                            .close();
                    return null;
                } catch (RuntimeException ex) {
                    return ex;
                }
            });
            assertThat(other.join()).isInstanceOf(LockBusyException.class);
            return runs.incrementAndGet();
        }
    }

    @Test
    void startsWithoutAnyRedisConnectionFactoryAndProtectsWithAllThreeStrategies(CapturedOutput output) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(InMemoryIdempotency.class);
            assertThat(context).doesNotHaveBean(RedisConnectionFactory.class);
            assertThat(context).doesNotHaveBean(RedisDiagnostics.class);
            exerciseAllThreeStrategies(context.getBean(Orders.class), context);
        });
        assertThat(output).contains("protect nothing across instances");
    }

    @Test
    void touchesNoRedisThatSpringBootConfigures() {
        runner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + REDIS_PORT.port())
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(RedisConnectionFactory.class);
                    assertThat(context.getBean(IdempotencyStore.class)).isInstanceOf(InMemoryIdempotency.class);
                    exerciseAllThreeStrategies(context.getBean(Orders.class), context);
                });
        assertThat(REDIS_PORT.connections())
                .as("connections to the configured Redis")
                .isZero();
    }

    private static void exerciseAllThreeStrategies(Orders orders, ApplicationContext context) {
        int first = orders.create("order-1");
        assertThat(orders.create("order-1")).as("replayed").isEqualTo(first);
        TokenExecutor tokens = context.getBean(TokenExecutor.class);
        String token = tokens.issue("", "checkout", Duration.ofMinutes(1)).token();
        orders.checkout(token);
        assertThatThrownBy(() -> orders.checkout(token)).isInstanceOf(TokenAlreadyUsedException.class);
        LeaseLockManager locks = context.getBean(LeaseLockManager.class);
        LOCKS.set(locks);
        orders.reserve("sku-1");
        try (LockHandle free = locks.acquire("sku-1", Duration.ofSeconds(30), Duration.ZERO)) {
            assertThat(free.fencingToken()).isPositive();
        }
        assertThat(orders.runs()).isEqualTo(3);
    }

    /** A loopback port that accepts and counts connections. */
    private static final class CountingPort implements AutoCloseable {

        private final ServerSocket socket;
        private final AtomicInteger accepted = new AtomicInteger();

        CountingPort() {
            try {
                socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            } catch (IOException ex) {
                throw new IllegalStateException(ex);
            }
            Thread acceptor = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (Socket ignored = socket.accept()) {
                        accepted.incrementAndGet();
                    } catch (IOException ex) {
                        return; // closed
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        int connections() {
            return accepted.get();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
