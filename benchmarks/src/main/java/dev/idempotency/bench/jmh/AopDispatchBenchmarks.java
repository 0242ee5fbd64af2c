package dev.idempotency.bench.jmh;

import dev.idempotency.aop.IdempotencyAdvisor;
import java.util.concurrent.TimeUnit;
import org.aopalliance.intercept.MethodInterceptor;
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
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The cost of reaching the interceptor: a CGLIB proxy with the {@link IdempotencyAdvisor}, whose advice resolves the
 * interceptor through an {@link ObjectProvider} on every call, as the auto-configuration wires it. The interceptor here
 * only proceeds, so the figures are dispatch alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class AopDispatchBenchmarks {

    private AnnotationConfigApplicationContext context;
    private ObjectProvider<PassThrough> provider;
    private Service viaProvider;
    private Service plain;

    @Setup
    public void setUp() {
        context = new AnnotationConfigApplicationContext(Config.class);
        provider = context.getBean(Holder.class).provider;
        viaProvider = proxy(new IdempotencyAdvisor(
                (MethodInterceptor) invocation -> provider.getObject().invoke(invocation)));
        plain = new Service();
    }

    @TearDown
    public void tearDown() {
        context.close();
    }

    private static Service proxy(IdempotencyAdvisor advisor) {
        ProxyFactory factory = new ProxyFactory(new Service());
        factory.setProxyTargetClass(true);
        factory.addAdvisor(advisor);
        return (Service) factory.getProxy();
    }

    /** {@code ObjectProvider.getObject()} of a singleton, as injected into a {@code @Bean} method. */
    @Benchmark
    public Object objectProviderGetObject() {
        return provider.getObject();
    }

    /** Proxy, advisor, provider lookup, interceptor, target: the auto-configuration's wiring. */
    @Benchmark
    public String proxiedViaProvider() {
        return viaProvider.echo("x");
    }

    /** The target without a proxy. */
    @Benchmark
    public String unproxied() {
        return plain.echo("x");
    }

    /** A bean with an annotated method. */
    public static class Service {

        /** Returns its argument. */
        @dev.idempotency.Idempotent
        public String echo(String value) {
            return value;
        }
    }

    /** An interceptor that only proceeds. */
    public static class PassThrough implements MethodInterceptor {

        @Override
        public Object invoke(org.aopalliance.intercept.MethodInvocation invocation) throws Throwable {
            return invocation.proceed();
        }
    }

    /** Receives the provider the way the auto-configuration's advisor method does. */
    public static class Holder {

        final ObjectProvider<PassThrough> provider;

        Holder(ObjectProvider<PassThrough> provider) {
            this.provider = provider;
        }
    }

    /** The beans. */
    @Configuration(proxyBeanMethods = false)
    public static class Config {

        @Bean
        PassThrough passThrough() {
            return new PassThrough();
        }

        @Bean
        static Holder holder(ObjectProvider<PassThrough> provider) {
            return new Holder(provider);
        }
    }
}
