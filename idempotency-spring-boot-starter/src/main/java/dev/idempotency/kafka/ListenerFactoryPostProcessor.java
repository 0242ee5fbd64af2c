package dev.idempotency.kafka;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.listener.CompositeRecordInterceptor;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.kafka.transaction.KafkaAwareTransactionManager;
import org.springframework.kafka.transaction.KafkaTransactionManager;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;

/**
 * Adds the {@link RecordBinding} to every listener container factory of the application: Spring Boot's
 * auto-configured one and any the application defines. A post-processor rather than a {@code RecordInterceptor} or
 * {@code ContainerCustomizer} bean, because Spring Boot applies those only when there is exactly one of them: a bean of
 * ours would silently switch off the application's own interceptor, or be switched off by it. The application's
 * interceptor runs first, so the binding sees the record as it reaches the listener.
 *
 * <p>A factory whose containers run listeners in Kafka transactions ({@code spring.kafka.producer.transaction-id-prefix})
 * gets transaction synchronization on its {@link KafkaTransactionManager}, which has none by default
 * ({@code SYNCHRONIZATION_NEVER}): with it, an idempotent listener's record is completed after the Kafka transaction
 * commits and released when it aborts (the mode Spring Kafka's maintainers recommend for producers that join the
 * consumer's transaction).
 */
final class ListenerFactoryPostProcessor implements BeanPostProcessor {

    private static final Logger log = LoggerFactory.getLogger(ListenerFactoryPostProcessor.class);

    private final RecordBinding binding = new RecordBinding();

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof AbstractKafkaListenerContainerFactory factory) {
            RecordInterceptor existing = factory.getRecordInterceptor();
            factory.setRecordInterceptor(
                    existing == null ? binding : new CompositeRecordInterceptor(existing, binding));
            synchronize(factory.getContainerProperties().getKafkaAwareTransactionManager(), beanName);
        }
        return bean;
    }

    private static void synchronize(@Nullable KafkaAwareTransactionManager<?, ?> transactions, String factory) {
        if (transactions instanceof KafkaTransactionManager<?, ?> kafka
                && kafka.getTransactionSynchronization() == AbstractPlatformTransactionManager.SYNCHRONIZATION_NEVER) {
            kafka.setTransactionSynchronization(
                    AbstractPlatformTransactionManager.SYNCHRONIZATION_ON_ACTUAL_TRANSACTION);
            log.info(
                    "Listener container factory '{}' runs in Kafka transactions: its KafkaTransactionManager now"
                            + " synchronizes, so idempotent listeners complete their records after the commit",
                    factory);
        }
    }
}
