package dev.idempotency.metrics;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.observation.InvocationObserver;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** An {@code idempotency} Observation around every protected call, when the application has an {@link ObservationRegistry}. */
@AutoConfiguration(
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        after = IdempotencyAutoConfiguration.class)
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean({ObservationRegistry.class, IdempotencyAutoConfiguration.class})
public final class IdempotencyObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "idempotencyObservingObserver")
    InvocationObserver idempotencyObservingObserver(ObservationRegistry observations) {
        return new ObservingObserver(observations);
    }
}
