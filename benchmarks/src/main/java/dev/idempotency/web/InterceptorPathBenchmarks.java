package dev.idempotency.web;

import dev.idempotency.aop.CallBinding;
import dev.idempotency.aop.IdempotentOperation;
import dev.idempotency.aop.KeyExpression;
import dev.idempotency.key.ClientKeys;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.requestid.RequestIdCall;
import dev.idempotency.requestid.RequestRecords;
import dev.idempotency.requestid.ResultCodec;
import dev.idempotency.support.LeaseRenewer;
import dev.idempotency.support.Owners;
import dev.idempotency.support.RedisGateway;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
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
import org.openjdk.jmh.infra.Blackhole;
import org.springframework.aop.support.AopUtils;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The in-JVM work of one {@code IdempotencyInterceptor.invoke} over HTTP, Redis excluded: the same public and
 * package-private pieces in the order the interceptor, {@code RequestIdExecutor} and {@code RequestIdStore} call them,
 * with the script arguments built but not sent. The stores are final classes bound to Redis, so the real
 * {@code invoke} cannot run without it; this composes what it does around the round trips. Not included: the AOP proxy
 * dispatch (see {@code AopDispatchBenchmarks}) and the Redis client's own work (Spring Data Redis, Lettuce).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class InterceptorPathBenchmarks {

    private WebCallFixture call;
    private LeaseRenewer renewer;
    private byte[] storedRecord;
    private KeyExpression lockKey;
    private final ConcurrentHashMap<String, Object> heldLocks = new ConcurrentHashMap<>();

    @Setup
    public void setUp() {
        call = new WebCallFixture();
        call.bindToCurrentThread();
        renewer = new LeaseRenewer();
        CallBinding binding = call.bindings.bind(call.operation, call.invocation);
        ResultCodec<@Nullable Object> codec = binding.resultCodec();
        byte[] response = codec.encode(call.echo);
        storedRecord = RequestRecords.completed(binding.fingerprint(), response);
        lockKey = KeyExpression.parse("#body.id");
    }

    @TearDown
    public void tearDown() {
        renewer.close();
        RequestContextHolder.resetRequestAttributes();
    }

    /**
     * A first {@code REQUEST_ID} request: resolve the operation, bind, validate and digest the key, fingerprint the
     * payload, claim (owner, script arguments), schedule the lease renewal, run the handler, cancel the renewal,
     * capture and encode the response, complete (record value, script arguments).
     */
    @Benchmark
    public @Nullable Object requestIdFirst(Blackhole blackhole) throws Throwable {
        IdempotentOperation operation = resolve();
        CallBinding binding = call.bindings.bind(operation, call.invocation);
        RequestIdCall request = requestIdCall(operation, binding);
        ResultCodec<@Nullable Object> codec = binding.resultCodec();
        String owner = claimArguments(request, blackhole);
        LeaseRenewer.Registration renewal = renewer.schedule(request.lease(), () -> true, () -> {});
        Object result = call.invocation.proceed();
        renewal.cancel();
        byte[] encoded = codec.shouldStore(result) ? codec.encode(result) : null;
        blackhole.consume(RequestRecords.ownedPrefix(owner));
        blackhole.consume(RequestRecords.completed(request.fingerprint(), encoded));
        blackhole.consume(RequestRecords.millis(request.ttl()));
        return result;
    }

    /**
     * A duplicate: the same up to the claim, then decode the record the claim script returned, compare fingerprints
     * and replay the stored response into the servlet response.
     */
    @Benchmark
    public @Nullable Object requestIdDuplicate(Blackhole blackhole) {
        IdempotentOperation operation = resolve();
        CallBinding binding = call.bindings.bind(operation, call.invocation);
        RequestIdCall request = requestIdCall(operation, binding);
        ResultCodec<@Nullable Object> codec = binding.resultCodec();
        claimArguments(request, blackhole);
        byte[] stored = RequestRecords.replayedResult(storedRecord, request.fingerprint());
        Object replayed = codec.decode(stored);
        call.resetResponse();
        return replayed;
    }

    /** {@code TOKEN}: bind, read the token header, digest it into the token key; the handler runs. */
    @Benchmark
    public @Nullable Object token(Blackhole blackhole) throws Throwable {
        IdempotentOperation operation = resolve();
        CallBinding binding = call.bindings.bind(operation, call.invocation);
        String token = binding.header(operation.header());
        blackhole.consume(RedisGateway.key(call.keys.token(call.scopes.scope(), token == null ? "" : token)));
        return call.invocation.proceed();
    }

    /**
     * {@code LOCK}, approximately {@code LeaseLockManager}'s in-JVM work: SpEL key, lock and fence keys, owner,
     * script arguments, the held-locks map, renewal scheduled and cancelled around the handler.
     */
    @Benchmark
    public @Nullable Object lock(Blackhole blackhole) throws Throwable {
        IdempotentOperation operation = resolve();
        CallBinding binding = call.bindings.bind(operation, call.invocation);
        blackhole.consume(binding);
        String resource = lockKey.evaluate(call.method, call.invocation.getArguments(), call.handler);
        String key = call.keys.lock(resource == null ? "" : resource);
        String owner = Owners.next();
        blackhole.consume(List.of(key, RedisKeys.fence(key)));
        blackhole.consume(owner.getBytes(StandardCharsets.UTF_8));
        blackhole.consume(Long.toString(operation.lease().toMillis()).getBytes(StandardCharsets.UTF_8));
        LeaseRenewer.Registration renewal = renewer.schedule(operation.lease(), () -> true, () -> {});
        heldLocks.put(key, owner);
        Object result = call.invocation.proceed();
        heldLocks.remove(key, owner);
        renewal.cancel();
        blackhole.consume(owner.getBytes(StandardCharsets.UTF_8));
        return result;
    }

    private IdempotentOperation resolve() {
        IdempotentOperation operation = call.registry.operationOf(
                call.invocation.getMethod(), AopUtils.getTargetClass(call.invocation.getThis()));
        if (operation == null) {
            throw new IllegalStateException("no operation");
        }
        return operation;
    }

    private RequestIdCall requestIdCall(IdempotentOperation operation, CallBinding binding) {
        String clientKey = ClientKeys.parse(binding.header(operation.header()));
        String recordKey = call.keys.requestId(call.scopes.scope(), binding.operation(), clientKey);
        return new RequestIdCall(
                recordKey,
                operation.fingerprint() ? binding.fingerprint() : null,
                operation.ttl(),
                operation.lease(),
                operation.maxWait());
    }

    /** What {@code RequestIdStore.claim} computes before its round trip; returns the owner id. */
    private static String claimArguments(RequestIdCall request, Blackhole blackhole) {
        String owner = Owners.next();
        String fingerprint = request.fingerprint() == null ? RequestRecords.noFingerprint() : request.fingerprint();
        blackhole.consume(List.of(request.recordKey()));
        blackhole.consume(RequestRecords.inProgress(owner, fingerprint));
        blackhole.consume(RequestRecords.millis(request.lease()));
        return owner;
    }
}
