package dev.idempotency.metrics;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.spi.StoreListener;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters of protected calls, when the application has a {@link MeterRegistry}: the counter
 * {@code idempotency.requests}, the timer {@code idempotency.store} (and its deprecated alias {@code idempotency.redis})
 * and the counters of leases lost, lock releases failed, undecodable results, results not stored and tokens refused.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
        },
        after = IdempotencyAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, IdempotencyAutoConfiguration.class})
public final class IdempotencyMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "idempotencyRequestCounter")
    InvocationObserver idempotencyRequestCounter(MeterRegistry meters) {
        return new RequestCounter(meters);
    }

    @Bean
    @ConditionalOnMissingBean(name = "idempotencyStoreListener")
    StoreListener idempotencyStoreListener(MeterRegistry meters) {
        return new MicrometerStoreListener(meters);
    }
}
