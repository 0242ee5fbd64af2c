package dev.idempotency.internal.requestid;

import dev.idempotency.internal.lease.Owners;
import dev.idempotency.internal.redis.RedisGateway;
import dev.idempotency.spi.Futures;
import dev.idempotency.spi.StoreListener;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One round trip to a real Redis, single thread: the library's path ({@link RedisRequestIdStore} and {@link RedisGateway}:
 * asynchronous Lettuce commands on the shared connection of Spring's {@link LettuceConnectionFactory}, joined by the
 * caller) against the same command sent with Lettuce's synchronous API directly (byte-array codec, one dedicated
 * connection), and the claim script of Redis before 7.0 against the {@code SET ... NX GET} the library sends on 7.0
 * and later. The difference between the two clients is client-side overhead per round trip.
 *
 * <p>Needs a Redis of your own, 7.0 or later: {@code -jvmArgsAppend -Dbench.redis.port=PORT}. Not part of the
 * Redis-free set; {@code benchmarks/run.sh} runs it against the Redis it starts.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class RedisClientBenchmarks {

    /** The same text as {@code RedisRequestIdStore}'s claim script (used before Redis 7.0), for the raw client to run. */
    private static final String CLAIM = """
            local existing = redis.call('GET', KEYS[1])
            if existing then return existing end
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
            return false
            """;

    private static final Duration LEASE = Duration.ofSeconds(30);

    private LettuceConnectionFactory factory;
    private RedisGateway gateway;
    private RedisRequestIdStore store;
    private RedisClient client;
    private StatefulRedisConnection<byte[], byte[]> connection;
    private RedisCommands<byte[], byte[]> commands;
    private final String duplicateKey = "bench:redis-client:duplicate";
    private final byte[] duplicateKeyBytes = duplicateKey.getBytes(StandardCharsets.UTF_8);
    private final String fingerprint = "f".repeat(22);
    private final byte[] inProgress = RequestRecord.inProgress(Owners.next(), fingerprint);
    private final byte[] leaseMillis = RedisRequestIdStore.millisArg(LEASE);
    private String sha;

    @Setup
    public void setUp() {
        int port = Integer.parseInt(System.getProperty("bench.redis.port", "0"));
        if (port == 0) {
            throw new IllegalStateException("Start a Redis of your own and pass -Dbench.redis.port=PORT");
        }
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        factory.afterPropertiesSet();
        factory.start();
        gateway = new RedisGateway(factory, StoreListener.NONE);
        store = new RedisRequestIdStore(gateway, null, RedisRequestIdStore.ClaimCommand.AUTO);
        client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        connection = client.connect(ByteArrayCodec.INSTANCE);
        commands = connection.sync();
        sha = commands.scriptLoad(CLAIM.getBytes(StandardCharsets.UTF_8));
        commands.set(duplicateKeyBytes, RequestRecord.completed(fingerprint, "{}".getBytes(StandardCharsets.US_ASCII)));
        if (!(Futures.join(store.claim(duplicateKey, fingerprint, LEASE)) instanceof ClaimOutcome.Replay)) {
            throw new IllegalStateException("the duplicate record is not replayed");
        }
    }

    @TearDown
    public void tearDown() {
        commands.del(duplicateKeyBytes);
        connection.close();
        client.shutdown();
        gateway.close();
        factory.destroy();
    }

    /** A duplicate's claim through the library: {@code RedisRequestIdStore.claim}, one {@code SET ... NX GET}. */
    @Benchmark
    public Object libraryClaimDuplicate() {
        return Futures.join(store.claim(duplicateKey, fingerprint, LEASE));
    }

    /** The same command with Lettuce directly: {@code SET key value PX lease NX GET}. */
    @Benchmark
    public Object lettuceSetNxGetDuplicate() {
        return commands.setGet(
                duplicateKeyBytes, inProgress, SetArgs.Builder.nx().px(LEASE.toMillis()));
    }

    /** The claim script the library sends to Redis before 7.0, with Lettuce directly. */
    @Benchmark
    public Object lettuceEvalshaDuplicate() {
        return commands.evalsha(sha, ScriptOutputType.VALUE, new byte[][] {duplicateKeyBytes}, inProgress, leaseMillis);
    }

    /** The floor: a plain {@code GET} with Lettuce directly. */
    @Benchmark
    public Object lettuceGet() {
        return commands.get(duplicateKeyBytes);
    }

    /** A plain {@code GET} through the library's gateway (shared connection, listener timing, failure translation). */
    @Benchmark
    public Object libraryGet() {
        return Futures.join(gateway.call("read", redis -> redis.get(duplicateKeyBytes)));
    }
}
