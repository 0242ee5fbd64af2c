package dev.idempotency.metrics;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.observation.InvocationObserver;
import dev.idempotency.spi.StoreListener;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters of protected calls, when the application has a {@link MeterRegistry}: the counter
 * {@code idempotency.requests}, the timer {@code idempotency.store} (and its deprecated alias {@code idempotency.redis}),
 * the counters of leases lost, lock releases failed, undecodable results, results not stored and tokens refused, and
 * the gauge {@code idempotency.held.bytes}.
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

    /** The response bytes held back now across all calls in flight, against {@code idempotency.max-held-bytes}. */
    @Bean
    @ConditionalOnBean(HeldBytes.class)
    @ConditionalOnMissingBean(name = "idempotencyHeldBytesGauge")
    Gauge idempotencyHeldBytesGauge(MeterRegistry meters, HeldBytes heldBytes) {
        return Gauge.builder("idempotency.held.bytes", heldBytes, HeldBytes::held)
                .description("Response bytes held back until their calls settle, across all calls in flight")
                .baseUnit("bytes")
                .strongReference(true)
                .register(meters);
    }
}
