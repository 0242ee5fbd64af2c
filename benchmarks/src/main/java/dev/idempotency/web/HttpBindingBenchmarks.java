package dev.idempotency.web;

import dev.idempotency.aop.CallBinding;
import java.lang.annotation.Annotation;
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
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The Spring MVC binding's pieces, one by one: binding a call, fingerprinting the payload, capturing and encoding the
 * response, decoding and replaying it. {@code jsonWriteBody} isolates the JSON share; the {@code lookup*} benchmarks
 * price the reflection that {@code HandlerMetadata} now does once per handler method instead of per request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HttpBindingBenchmarks {

    private WebCallFixture call;
    private HandlerMetadata handler;
    private CallBinding binding;
    private StoredResponse stored;
    private byte[] encoded;

    @Setup
    public void setUp() {
        call = new WebCallFixture();
        call.bindToCurrentThread();
        handler = HandlerMetadata.of(call.method);
        binding = call.bindings.bind(call.operation, call.invocation);
        stored = ResponseCapture.capture(call.echo, handler, call.response, call.jsonMapper);
        encoded = stored.encode();
    }

    @TearDown
    public void tearDown() {
        RequestContextHolder.resetRequestAttributes();
    }

    /** Payload fingerprint: path variables, parameters and the {@code @RequestBody} argument as JSON, digested. */
    @Benchmark
    public String fingerprint() {
        return binding.fingerprint();
    }

    /**
     * Finding the {@code @RequestBody} parameter by reflection: what the binding did per request before
     * {@code HandlerMetadata}, which now does it once per handler method. Kept to show what that saves.
     */
    @Benchmark
    public Annotation[][] lookupParameterAnnotations() {
        return call.method.getParameterAnnotations();
    }

    /** Part of {@link #fingerprint()} and {@link #capture()}: the ~200-byte body to JSON with Jackson. */
    @Benchmark
    public byte[] jsonWriteBody() {
        return call.jsonMapper.writeValueAsBytes(call.echo);
    }

    /** Turning the handler's return value into the response to store (status, headers, body bytes). */
    @Benchmark
    public StoredResponse capture() {
        return ResponseCapture.capture(call.echo, handler, call.response, call.jsonMapper);
    }

    /**
     * The {@code @ResponseStatus} (method, then class) and {@code @RequestMapping} lookups that capture made per request
     * before {@code HandlerMetadata} read them once per method. Kept to show what that saves.
     */
    @Benchmark
    public Object lookupMergedAnnotations() {
        ResponseStatus status = AnnotatedElementUtils.findMergedAnnotation(call.method, ResponseStatus.class);
        if (status == null) {
            status = AnnotatedElementUtils.findMergedAnnotation(call.method.getDeclaringClass(), ResponseStatus.class);
        }
        RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(call.method, RequestMapping.class);
        return status != null ? status : mapping;
    }

    /** The stored response to bytes. */
    @Benchmark
    public byte[] encode() {
        return stored.encode();
    }

    /** What {@code ResultCodec.shouldStore} + {@code encode} do for a first request: capture once, then encode. */
    @Benchmark
    public byte[] captureAndEncode() {
        HttpResponseCodec codec = new HttpResponseCodec(handler, call.response, call.jsonMapper);
        return codec.shouldStore(call.echo) ? codec.encode(call.echo) : null;
    }

    /** Bytes back to a stored response. */
    @Benchmark
    public StoredResponse decode() {
        return StoredResponse.decode(encoded);
    }

    /** A duplicate's replay: decode, write status, headers and body to the response, then reset it for the next. */
    @Benchmark
    public Object replay() {
        Object replayed = new HttpResponseCodec(handler, call.response, call.jsonMapper).decode(encoded);
        call.resetResponse();
        return replayed;
    }

    /**
     * Part of {@link #replay()} that is the servlet mock's own work, to subtract: the same writes (status, two headers,
     * length, body, flush) and the reset, without decoding. Tomcat's response does this work differently.
     */
    @Benchmark
    public Object replayMockWritesOnly() throws java.io.IOException {
        call.response.setStatus(stored.status());
        stored.headers().forEach(call.response::setHeader);
        call.response.setHeader(HttpResponseCodec.REPLAYED_HEADER, "true");
        call.response.setContentLength(stored.body().length);
        call.response.getOutputStream().write(stored.body());
        call.response.flushBuffer();
        call.resetResponse();
        return call.response;
    }
}
