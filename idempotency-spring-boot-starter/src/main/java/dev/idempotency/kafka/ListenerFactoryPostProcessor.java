package dev.idempotency.kafka;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.listener.CompositeRecordInterceptor;
import org.springframework.kafka.listener.RecordInterceptor;

/**
 * Adds the {@link RecordBinding} to every listener container factory of the application: Spring Boot's
 * auto-configured one and any the application defines. A post-processor rather than a {@code RecordInterceptor} or
 * {@code ContainerCustomizer} bean, because Spring Boot applies those only when there is exactly one of them: a bean of
 * ours would silently switch off the application's own interceptor, or be switched off by it. The application's
 * interceptor runs first, so the binding sees the record as it reaches the listener.
 */
final class ListenerFactoryPostProcessor implements BeanPostProcessor {

    private final RecordBinding binding = new RecordBinding();

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof AbstractKafkaListenerContainerFactory factory) {
            RecordInterceptor existing = factory.getRecordInterceptor();
            factory.setRecordInterceptor(
                    existing == null ? binding : new CompositeRecordInterceptor(existing, binding));
        }
        return bean;
    }
}
