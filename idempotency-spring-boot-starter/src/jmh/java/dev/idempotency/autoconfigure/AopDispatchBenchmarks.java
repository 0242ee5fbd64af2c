package dev.idempotency.autoconfigure;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import dev.idempotency.aop.IdempotencyAdvisor;
import dev.idempotency.internal.aop.IdempotencyInterceptor;
import dev.idempotency.internal.operation.InvocationFlow;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationResolver;
import dev.idempotency.internal.operation.ProtectedInvocation;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.scope.ScopeResolver;
import dev.idempotency.spi.Admission;
import dev.idempotency.spi.IdempotencyStrategy;
import dev.idempotency.spi.ProtectedCall;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The cost of reaching the interceptor: a CGLIB proxy with the {@link IdempotencyAdvisor} whose advice is the
 * auto-configuration's {@link IdempotencyInterceptor}, built {@link IdempotencyInterceptor#onFirstCall} (its
 * collaborators looked up once through {@link ObjectProvider}s, then kept), and its own dispatch: the operation's lookup
 * and the choice of its flow.
 * The flow here only proceeds, so the figures are dispatch alone; the strategies' work is in
 * {@code InterceptorPathBenchmarks}. Before, the advice called {@code ObjectProvider.getObject()} on every call;
 * {@link #objectProviderGetObject} is kept to price that lookup.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class AopDispatchBenchmarks {

    /** Proceeds without protection: the bean-call flow's place, with nothing of a strategy's work. */
    private static final InvocationFlow PROCEED = ProtectedInvocation::proceed;

    private ObjectProvider<IdempotencyInterceptor> provider;
    private Service viaAutoConfiguration;
    private Service viaPassThrough;
    private Service plain;

    @Setup
    public void setUp() {
        Protection protection = new Protection(
                List.of(new Unused(Strategy.REQUEST_ID), new Unused(Strategy.TOKEN), new Unused(Strategy.LOCK)),
                ScopeResolver.shared(),
                false,
                InvocationObserver.NONE);
        OperationRegistry registry = new OperationRegistry(new OperationResolver(
                PropertiesMapping.defaults(new IdempotencyProperties()),
                Map.of(),
                value -> value,
                JsonMapper.builder().build(),
                PROCEED,
                List.of(),
                List.of()));
        registry.register(Service.class);
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        beans.registerSingleton("idempotencyInterceptor", new IdempotencyInterceptor(registry, List.of(), protection));
        provider = beans.getBeanProvider(IdempotencyInterceptor.class);
        viaAutoConfiguration = proxy(new IdempotencyAdvisor(IdempotencyInterceptor.onFirstCall(
                () -> new IdempotencyInterceptor.Dispatch(registry, List.of(), protection))));
        viaPassThrough = proxy(new IdempotencyAdvisor((MethodInterceptor) MethodInvocation::proceed));
        plain = new Service();
    }

    private static Service proxy(IdempotencyAdvisor advisor) {
        ProxyFactory factory = new ProxyFactory(new Service());
        factory.setProxyTargetClass(true);
        factory.addAdvisor(advisor);
        return (Service) factory.getProxy();
    }

    /** {@code ObjectProvider.getObject()} of a singleton: once per application now, on every call before. */
    @Benchmark
    public Object objectProviderGetObject() {
        return provider.getObject();
    }

    /** Proxy, advisor, interceptor, operation lookup, flow, target: the auto-configuration's wiring. */
    @Benchmark
    public String proxiedViaAutoConfiguration() {
        return viaAutoConfiguration.echo("x");
    }

    /** Proxy and advisor with an advice that only proceeds: Spring AOP's share. */
    @Benchmark
    public String proxiedPassThrough() {
        return viaPassThrough.echo("x");
    }

    /** The target without a proxy. */
    @Benchmark
    public String unproxied() {
        return plain.echo("x");
    }

    /** A bean with an annotated method. */
    public static class Service {

        /** Returns its argument. */
        @Idempotent
        public String echo(String value) {
            return value;
        }
    }

    /** Never asked to admit anything: the flow here proceeds without a strategy. */
    private record Unused(Strategy strategy) implements IdempotencyStrategy {

        @Override
        public CompletableFuture<Admission> admitAsync(ProtectedCall call) {
            throw new UnsupportedOperationException("dispatch only");
        }
    }
}
