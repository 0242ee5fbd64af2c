package dev.idempotency.web.servlet;

import java.io.IOException;
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
 * A first {@code REQUEST_ID} request whose handler answers 1 MB (1 000 000 bytes, under the default
 * {@code max-response-size}), on the whole in-JVM path of {@link InterceptorPathBenchmarks}: the bytes held back as
 * they are written, the stored response encoded, the record completed. Run with {@code -prof gc}: its
 * {@code gc.alloc.rate.norm} is the bytes allocated per protected 1 MB answer; {@link #handlerOnly} is the servlet
 * mock's share (it keeps a copy of what is written), to subtract.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class LargeAnswerBenchmarks {

    static final int ANSWER_BYTES = 1_000_000;

    private WebCallFixture call;

    @Setup
    public void setUp() throws Exception {
        call = new WebCallFixture(ANSWER_BYTES);
        call.redis.setGetReply = null;
        call.redis.lastStored = null;
        String first = call.serveAndDescribe(call.requestId);
        if (!first.equals("200 replayed=false body=" + ANSWER_BYTES)) {
            throw new IllegalStateException("expected a first request's 1 MB answer, got " + first);
        }
        byte[] stored = call.redis.lastRecord();
        if (stored == null || stored.length < ANSWER_BYTES) {
            throw new IllegalStateException("the 1 MB answer was not stored");
        }
    }

    @TearDown
    public void tearDown() {
        call.close();
    }

    @Benchmark
    public int requestIdFirst() throws Exception {
        call.redis.setGetReply = null;
        return call.serve(call.requestId);
    }

    @Benchmark
    public int handlerOnly() throws IOException {
        return call.serveUnprotected(call.requestId);
    }
}
