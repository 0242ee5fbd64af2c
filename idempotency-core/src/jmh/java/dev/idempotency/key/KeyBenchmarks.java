package dev.idempotency.key;

import dev.idempotency.internal.lease.Owners;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Key handling before Redis is touched: validating the client's key, digesting it into a Redis key, owner ids. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class KeyBenchmarks {

    private final RedisKeys keys = new RedisKeys("idempotency:");
    private final String header = "6f1c2a1e-3b7d-4c55-9a7e-0d2f1f9b8c41";
    private final String quotedHeader = "\"" + header + "\"";
    private final String token = "q7Vh0m2kP9xZ3cR5tY8uB1nW4eJ6gL0a";

    /** {@code ClientKeys.parse} + {@code RedisKeys.requestId}: what every header key goes through. */
    @Benchmark
    public String parseAndDigest() {
        return keys.requestId("", "POST /request-id", ClientKeys.parse(header));
    }

    /** The same with a Structured Field string key ({@code "..."}). */
    @Benchmark
    public String parseQuotedAndDigest() {
        return keys.requestId("", "POST /request-id", ClientKeys.parse(quotedHeader));
    }

    /** The key of a one-time token ({@code TOKEN}). */
    @Benchmark
    public String tokenKey() {
        return keys.token("", "submit", token);
    }

    /** The lock key of a resource ({@code LOCK}). */
    @Benchmark
    public String lockKey() {
        return keys.lock(header);
    }

    /** A fresh owner id (every claim and lock acquisition). */
    @Benchmark
    public String ownerId() {
        return Owners.next();
    }
}
