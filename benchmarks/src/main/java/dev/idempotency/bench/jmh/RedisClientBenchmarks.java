package dev.idempotency.bench.jmh;

import dev.idempotency.requestid.ClaimOutcome;
import dev.idempotency.requestid.RequestIdStore;
import dev.idempotency.support.RedisGateway;
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
import org.springframework.data.redis.core.script.RedisScript;

/**
 * One round trip to a real Redis, single thread: the library's path ({@code RedisGateway} over Spring Data Redis's
 * template) against the same command sent with Lettuce directly (byte-array codec, one dedicated connection), and a
 * script against the native command that could replace it. The difference between the two clients is client-side
 * overhead per round trip. Needs a Redis of your own: {@code -jvmArgsAppend -Dbench.redis.port=PORT}; not part of the
 * Redis-free default set ({@code run.sh} runs it against the Redis it starts).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class RedisClientBenchmarks {

    /** The same text as {@code RequestIdStore}'s claim script, so that the raw client runs the identical script. */
    private static final RedisScript<byte[]> CLAIM = RedisScript.of("""
            local existing = redis.call('GET', KEYS[1])
            if existing then return existing end
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
            return false
            """, byte[].class);

    private static final Duration LEASE = Duration.ofSeconds(30);

    private LettuceConnectionFactory factory;
    private RedisGateway gateway;
    private RequestIdStore store;
    private RedisClient client;
    private StatefulRedisConnection<byte[], byte[]> connection;
    private RedisCommands<byte[], byte[]> commands;
    private final String duplicateKey = "bench:redis-client:duplicate";
    private final byte[] duplicateKeyBytes = duplicateKey.getBytes(StandardCharsets.UTF_8);
    private final byte[] value = ("P" + "a".repeat(22) + "-".repeat(22)).getBytes(StandardCharsets.US_ASCII);
    private final byte[] leaseMillis = "30000".getBytes(StandardCharsets.US_ASCII);
    private final String fingerprint = "-".repeat(22);
    private byte[] sha;

    @Setup
    public void setUp() {
        int port = Integer.parseInt(System.getProperty("bench.redis.port", "0"));
        if (port == 0) {
            throw new IllegalStateException("Start a Redis of your own and pass -Dbench.redis.port=PORT");
        }
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        factory.afterPropertiesSet();
        factory.start();
        gateway = new RedisGateway(factory);
        store = new RequestIdStore(gateway);
        client = RedisClient.create(RedisURI.create("127.0.0.1", port));
        connection = client.connect(ByteArrayCodec.INSTANCE);
        commands = connection.sync();
        sha = commands.scriptLoad(CLAIM.getScriptAsString().getBytes(StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.US_ASCII);
        commands.set(
                duplicateKeyBytes, ("C" + "a".repeat(22) + fingerprint + "{}").getBytes(StandardCharsets.US_ASCII));
        if (!(store.claim(duplicateKey, fingerprint, LEASE) instanceof ClaimOutcome.Replay)) {
            throw new IllegalStateException("the duplicate record is not replayed");
        }
    }

    @TearDown
    public void tearDown() {
        commands.del(duplicateKeyBytes);
        connection.close();
        client.shutdown();
        factory.destroy();
    }

    /** A duplicate's claim through the library: {@code RequestIdStore.claim} (script by EVALSHA via the template). */
    @Benchmark
    public Object libraryClaimDuplicate() {
        return store.claim(duplicateKey, fingerprint, LEASE);
    }

    /** The same script and arguments with Lettuce directly. */
    @Benchmark
    public Object lettuceEvalshaDuplicate() {
        return commands.evalsha(
                new String(sha, StandardCharsets.US_ASCII),
                ScriptOutputType.VALUE,
                new byte[][] {duplicateKeyBytes},
                value,
                leaseMillis);
    }

    /** What could replace the claim script on Redis 7: {@code SET key value PX lease NX GET}, Lettuce directly. */
    @Benchmark
    public Object lettuceSetNxGetDuplicate() {
        return commands.setGet(duplicateKeyBytes, value, SetArgs.Builder.nx().px(LEASE.toMillis()));
    }

    /** The floor: a plain {@code GET} with Lettuce directly. */
    @Benchmark
    public Object lettuceGet() {
        return commands.get(duplicateKeyBytes);
    }

    /** A plain {@code GET} through the library's gateway (template, connection per call, exception translation). */
    @Benchmark
    public Object libraryGet() {
        return gateway.command("get", redis -> redis.stringCommands().get(duplicateKeyBytes));
    }
}
