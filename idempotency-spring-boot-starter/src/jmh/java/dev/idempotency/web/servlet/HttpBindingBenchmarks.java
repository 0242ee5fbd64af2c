package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HandlerMetadata;
import dev.idempotency.internal.http.HeldBody;
import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.ReceivedBody;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.StoredResponse;
import dev.idempotency.internal.operation.CanonicalJson;
import dev.idempotency.internal.operation.Fingerprint;
import dev.idempotency.internal.operation.PayloadFields;
import dev.idempotency.internal.operation.TreeCanonicalJson;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The Spring MVC binding's pieces, one by one: the handler's body parameter, fingerprinting the payload, capturing and
 * encoding the response, decoding and replaying it.
 *
 * <p>What changed since these pieces were measured last: the response is no longer re-serialized from the handler's
 * return value ({@code ResponseCapture}); the bytes sent are copied as they are written ({@link CapturingResponse}),
 * and the status and headers are read from the response, so the {@code @ResponseStatus} / {@code @RequestMapping}
 * lookups ({@code lookupMergedAnnotations}) are gone; {@link #capture} and {@link #storedResponse} measure what
 * replaced them. The body parameter is found once per handler method ({@link HandlerMetadata}, cached by the flow);
 * {@link #handlerMetadataOf} prices the lookup that the cache saves, in place of {@code lookupParameterAnnotations}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class HttpBindingBenchmarks {

    /** No bound on what is held (the benchmark never releases what it captured). */
    private static final HeldBytes UNBOUNDED = new HeldBytes(Long.MAX_VALUE);

    private WebCallFixture call;
    private Method method;
    private HandlerMetadata handler;
    private final Map<Method, HandlerMetadata> handlers = new ConcurrentHashMap<>();
    private ReplayedHeaders replayedHeaders;
    private long maxBytes;
    private final MockHttpServletResponse sent = new MockHttpServletResponse();
    private StoredResponse stored;
    private byte[] encoded;

    @Setup
    public void setUp() throws IOException {
        call = new WebCallFixture();
        method = call.requestId.method;
        handler = HandlerMetadata.of(method);
        call.requestId.request.setAttribute(
                ReceivedBody.ATTRIBUTE, new ReceivedBody(call.bodyJson, MediaType.APPLICATION_JSON));
        replayedHeaders = new ReplayedHeaders(call.properties.getRequestId().getReplayedHeaders());
        maxBytes = call.properties.getRequestId().getMaxResponseSize().toBytes();
        sent.setContentType(MediaType.APPLICATION_JSON_VALUE);
        sent.getOutputStream().write(call.bodyJson);
        stored = storedResponse();
        encoded = stored.encode();
    }

    @TearDown
    public void tearDown() {
        call.close();
    }

    /**
     * Payload fingerprint: path variables, parameters and the body as received (kept by {@code ReceivedBodyAdvice}),
     * in canonical JSON, digested. Before the streaming canonical form: 4.1 KB and 1.7 us a call, of which the tree
     * was most ({@link #canonicalBodyBefore} against {@link #canonicalBody}).
     */
    @Benchmark
    public String fingerprint() {
        return RequestFingerprint.of(
                call.requestId.request,
                handler,
                call.requestId.invocation.getArguments(),
                PayloadFields.ALL,
                call.jsonMapper);
    }

    /**
     * The body's part of {@link #fingerprint}: the ~200-byte JSON body in canonical form, written as it is parsed into
     * a buffer the thread keeps ({@code CanonicalWriter}), then digested.
     */
    @Benchmark
    public String canonicalBody() {
        Fingerprint fingerprint = new Fingerprint();
        CanonicalJson.addTo(fingerprint, 'b', call.bodyJson, PayloadFields.ALL);
        return fingerprint.digest();
    }

    /**
     * {@link #canonicalBody} as it was before (the "before" of the streaming form, kept here only): the body parsed into
     * a tree, the tree written with its members sorted, the bytes digested.
     */
    @Benchmark
    public String canonicalBodyBefore() {
        Fingerprint fingerprint = new Fingerprint();
        TreeCanonicalJson.addTo(fingerprint, 'b', call.bodyJson, PayloadFields.ALL);
        return fingerprint.digest();
    }

    /** Finding the body parameter of a handler method: what the flow's per-method cache saves on every request. */
    @Benchmark
    public Object handlerMetadataOf() {
        return HandlerMetadata.of(method);
    }

    /** The flow's per-request lookup of that cache. */
    @Benchmark
    public Object handlerMetadataCached() {
        return handlers.computeIfAbsent(method, HandlerMetadata::of);
    }

    /** Part of every endpoint's work (protected or not): the ~200-byte body to JSON with Jackson. */
    @Benchmark
    public byte[] jsonWriteBody() {
        return call.jsonMapper.writeValueAsBytes(call.body);
    }

    /**
     * A first request's capture: the body written through {@link CapturingResponse} armed for {@code REQUEST_ID}, which
     * copies it as it passes, then the copy taken. Replaces {@code ResponseCapture.capture}, which serialized the
     * handler's return value a second time. Includes the mock's writes ({@link #captureMockWritesOnly}).
     */
    @Benchmark
    public Object capture() throws IOException {
        CapturingResponse response = new CapturingResponse(call.response, UNBOUNDED);
        response.arm(maxBytes);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getOutputStream().write(call.bodyJson);
        HeldBody copied = response.copied();
        call.resetResponse();
        return copied;
    }

    /** Part of {@link #capture()} that is the servlet mock's own work: the same writes, without the wrapper. */
    @Benchmark
    public Object captureMockWritesOnly() throws IOException {
        call.response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        call.response.getOutputStream().write(call.bodyJson);
        return call.resetResponse();
    }

    /**
     * The response to store, read from the response as sent: its status and replayed headers. Replaces the per-method
     * annotation lookups that decided status and content type before.
     */
    @Benchmark
    public StoredResponse storedResponse() {
        return new StoredResponse(
                sent.getStatus(), replayedHeaders.capture(sent::getHeaders), sent.getContentAsByteArray());
    }

    /** The stored response to bytes. */
    @Benchmark
    public byte[] encode() {
        return stored.encode();
    }

    /**
     * What a first request does with its response besides Redis, at the end of the exchange: capture, the stored
     * response, encode.
     */
    @Benchmark
    public byte[] captureAndEncode() throws IOException {
        CapturingResponse response = new CapturingResponse(call.response, UNBOUNDED);
        response.arm(maxBytes);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getOutputStream().write(call.bodyJson);
        HeldBody body = java.util.Objects.requireNonNull(response.copied(), "captured");
        byte[] record =
                StoredResponse.encode(response.getStatus(), replayedHeaders.capture(response::getHeaders), body);
        call.resetResponse();
        return record;
    }

    /** Bytes back to a stored response. */
    @Benchmark
    public StoredResponse decode() {
        return StoredResponse.decode(encoded);
    }

    /** A duplicate's replay: decode, write status, headers and body to the response, then reset it for the next. */
    @Benchmark
    public Object replay() throws IOException {
        write(call.response, StoredResponse.decode(encoded));
        return call.resetResponse();
    }

    /**
     * Part of {@link #replay()} that is the servlet mock's own work, to subtract: the same writes (status, headers,
     * length, body, flush) and the reset, without decoding. Tomcat's response does this work differently.
     */
    @Benchmark
    public Object replayMockWritesOnly() throws IOException {
        write(call.response, stored);
        return call.resetResponse();
    }

    /** The writes of {@code ServletExchangeFlow.replay} (private there). */
    private static void write(HttpServletResponse response, StoredResponse replayed) throws IOException {
        response.setStatus(replayed.status());
        replayed.headers().forEach(header -> response.addHeader(header.name(), header.value()));
        response.setHeader(ReplayedHeaders.REPLAYED, "true");
        response.setContentLength(replayed.body().length);
        response.getOutputStream().write(replayed.body());
        response.flushBuffer();
    }
}
