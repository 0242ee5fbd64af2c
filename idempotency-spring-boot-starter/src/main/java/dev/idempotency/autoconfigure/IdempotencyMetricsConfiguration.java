package dev.idempotency.autoconfigure;

import dev.idempotency.aop.InvocationObserver;
import dev.idempotency.metrics.MicrometerInvocationObserver;
import dev.idempotency.metrics.MicrometerStoreCallListener;
import dev.idempotency.support.StoreCallListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Micrometer metrics and observations, when Micrometer is on the classpath. The registries are looked up lazily, so
 * this works whatever order the metrics auto-configuration runs in; without registry beans Micrometer's global
 * registry and a no-op observation registry are used.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({MeterRegistry.class, ObservationRegistry.class})
class IdempotencyMetricsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    InvocationObserver idempotencyInvocationObserver(
            ObjectProvider<MeterRegistry> meters, ObjectProvider<ObservationRegistry> observations) {
        return new MicrometerInvocationObserver(
                meters.getIfAvailable(() -> Metrics.globalRegistry),
                observations.getIfAvailable(() -> ObservationRegistry.NOOP));
    }

    @Bean
    @ConditionalOnMissingBean
    StoreCallListener idempotencyStoreCallListener(ObjectProvider<MeterRegistry> meters) {
        return new MicrometerStoreCallListener(meters.getIfAvailable(() -> Metrics.globalRegistry));
    }
}
