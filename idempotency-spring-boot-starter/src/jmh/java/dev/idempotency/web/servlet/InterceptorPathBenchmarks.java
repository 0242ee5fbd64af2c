package dev.idempotency.web.servlet;

import dev.idempotency.spi.Futures;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

/**
 * The in-JVM work of one protected Spring MVC request, Redis excluded: the real response filter, interceptor, servlet
 * flow, strategies ({@code RequestIdExecutor}, {@code TokenExecutor}, {@code LeaseLockManager}), lease renewer and
 * gateway, run over {@link ImmediateRedis}, a stand-in for Lettuce's asynchronous commands that answers at once. Before
 * the strategy SPI the stores were final classes bound to Redis, so this benchmark composed the pieces around the
 * round trips by hand; now the whole path runs, in call order, with only the commands' transport replaced.
 *
 * <p>Not included: the AOP proxy dispatch ({@code AopDispatchBenchmarks}), Lettuce and Redis ({@code
 * RedisClientBenchmarks} in the core), and the DispatcherServlet. Included, and to subtract for the library's own
 * share: the servlet mock's writes and the handler ({@link #handlerOnly}; a duplicate's replay writes are {@code
 * HttpBindingBenchmarks.replayMockWritesOnly}), and the stand-in's answers ({@link #gatewayCallOnly}, per round trip).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class InterceptorPathBenchmarks {

    private WebCallFixture call;
    private byte[] storedRecord;
    private final byte[] key = "idempotency:request-id:benchmark".getBytes(StandardCharsets.UTF_8);

    @Setup
    public void setUp() throws IOException, ServletException {
        call = new WebCallFixture();
        storedRecord = call.storedRecord();
        // Each path once, so that a broken one fails here rather than being timed.
        int body = call.bodyJson.length;
        call.redis.setGetReply = null;
        expect(call.serveAndDescribe(call.requestId), "200 replayed=false body=" + body);
        call.redis.setGetReply = storedRecord;
        expect(call.serveAndDescribe(call.requestId), "200 replayed=true body=" + body);
        call.redis.setGetReply = WebCallFixture.VALID_TOKEN;
        expect(call.serveAndDescribe(call.token), "200 replayed=false body=" + body);
        expect(call.serveAndDescribe(call.lock), "200 replayed=false body=" + body);
    }

    private static void expect(String actual, String expected) {
        if (!actual.equals(expected)) {
            throw new IllegalStateException("expected " + expected + ", got " + actual);
        }
    }

    @TearDown
    public void tearDown() {
        call.close();
    }

    /**
     * A first {@code REQUEST_ID} request: the filter opens the exchange; resolve the operation, validate and digest the
     * key, fingerprint the payload, claim ({@code SET ... NX GET}), start the lease; the handler runs and its JSON is
     * written through the capturing response; at the end of the exchange the response is encoded and completed (one
     * script), and the lease ends.
     */
    @Benchmark
    public int requestIdFirst() throws IOException, ServletException {
        call.redis.setGetReply = null;
        return call.serve(call.requestId);
    }

    /**
     * A duplicate: the same up to the claim, whose reply is the completed record; then decode the record, compare the
     * fingerprints, decode the stored response and replay it into the servlet response. The handler does not run.
     */
    @Benchmark
    public int requestIdDuplicate() throws IOException, ServletException {
        call.redis.setGetReply = storedRecord;
        return call.serve(call.requestId);
    }

    /** {@code TOKEN}: read and check the token, digest it into the token key, consume it; the handler runs. */
    @Benchmark
    public int token() throws IOException, ServletException {
        call.redis.setGetReply = WebCallFixture.VALID_TOKEN;
        return call.serve(call.token);
    }

    /**
     * {@code LOCK}: the SpEL key, lock and fence keys, owner, acquire (one script), the held-locks map and the lease
     * around the handler, release (one script).
     */
    @Benchmark
    public int lock() throws IOException, ServletException {
        return call.serve(call.lock);
    }

    /** The same request without the starter: the handler and the body written to the servlet mock. */
    @Benchmark
    public int handlerOnly() throws IOException {
        return call.serveUnprotected(call.requestId);
    }

    /** One command through the gateway to the stand-in and back: what each round trip above adds besides Redis. */
    @Benchmark
    public Object gatewayCallOnly() {
        return Futures.join(call.idempotency.gateway().call("read", redis -> redis.get(key)));
    }
}
