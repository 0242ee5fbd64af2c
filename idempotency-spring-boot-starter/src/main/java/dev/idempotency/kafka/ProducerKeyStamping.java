package dev.idempotency.kafka;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;

/**
 * Adds {@link IdempotencyKeyProducerInterceptor} to Spring Boot's producer factory, after any interceptors the
 * application configured, and tells it the header ({@code idempotency.kafka.header}).
 */
final class ProducerKeyStamping implements DefaultKafkaProducerFactoryCustomizer {

    private final String header;

    ProducerKeyStamping(String header) {
        this.header = header;
    }

    @Override
    public void customize(DefaultKafkaProducerFactory<?, ?> producerFactory) {
        List<String> interceptors =
                classNames(producerFactory.getConfigurationProperties().get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG));
        String stamping = IdempotencyKeyProducerInterceptor.class.getName();
        if (!interceptors.contains(stamping)) {
            interceptors.add(stamping);
        }
        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG, interceptors);
        if (!header.equals(IdempotencyKeyProducerInterceptor.DEFAULT_HEADER)) {
            // Kafka logs a property it does not know once; leave it out when the interceptor's default is meant.
            configs.put(IdempotencyKeyProducerInterceptor.HEADER_CONFIG, header);
        }
        producerFactory.updateConfigs(configs);
    }

    /** {@code interceptor.classes} as Kafka accepts it: a comma-separated string, a class, or a list of either. */
    private static List<String> classNames(@Nullable Object configured) {
        List<String> names = new ArrayList<>();
        if (configured instanceof Collection<?> many) {
            many.forEach(one -> names.addAll(classNames(one)));
        } else if (configured instanceof Class<?> type) {
            names.add(type.getName());
        } else if (configured != null) {
            Arrays.stream(configured.toString().split(","))
                    .map(String::trim)
                    .filter(name -> !name.isEmpty())
                    .forEach(names::add);
        }
        return names;
    }
}
