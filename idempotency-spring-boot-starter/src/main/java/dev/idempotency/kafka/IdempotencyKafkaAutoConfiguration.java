package dev.idempotency.kafka;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.autoconfigure.IdempotencyProperties;
import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.requestid.RequestIdExecutor;
import dev.idempotency.scope.ScopeResolver;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.CommonDelegatingErrorHandler;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code @Idempotent} on Kafka record listeners: every listener container factory binds the record it delivers to the
 * consumer thread, and a call source protects the listener call with the record's key and value. Also
 * {@link KafkaIdempotency} for batch listeners, and, on request, key stamping on Spring Boot's producer.
 *
 * <ul>
 *   <li>While a record is bound, every {@code @Idempotent} method annotated {@code @KafkaListener} or
 *       {@code @KafkaHandler} that the consumer thread calls is protected with that record: normally the listener
 *       itself, but also such a method of another bean that the listener calls directly. Any other {@code @Idempotent}
 *       method it calls stays a bean call, keyed by its own arguments.
 *   <li>The key is the {@code idempotency.kafka.header} header, or {@code @Idempotent(key)}, which sees the listener's
 *       arguments by name and the record as {@code #record}. {@code #record} is always the record: a listener
 *       parameter named {@code record} is reachable by its position only ({@code #p1} if it is the second).
 *   <li>Keys are scoped by the operation (the method's signature, or {@code @Idempotent(operation)}), not by the
 *       consumer group: one method that listens in two groups processes each key once across both. For work in each
 *       group, give each group a method of its own with its own {@code @Idempotent(operation = "...")}.
 *   <li>Without an error handler of the application's, a record that can succeed later (key in progress elsewhere,
 *       lock busy, Redis unavailable) is redelivered until it does, never skipped; see {@link KafkaErrorHandling}.
 * </ul>
 */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class)
@ConditionalOnClass({KafkaListener.class, RecordInterceptor.class, ConsumerRecord.class})
@ConditionalOnBean(IdempotencyAutoConfiguration.class)
@EnableConfigurationProperties(IdempotencyKafkaProperties.class)
public final class IdempotencyKafkaAutoConfiguration {

    /** Static: post-processors are created before other beans, and this one needs none of them. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static ListenerFactoryPostProcessor idempotencyKafkaRecordBinding() {
        return new ListenerFactoryPostProcessor();
    }

    @Bean
    ListenerMethods idempotencyKafkaListenerMethods() {
        return new ListenerMethods();
    }

    @Bean
    CallSource idempotencyKafkaCallSource(
            ListenerMethods listeners,
            IdempotencyKafkaProperties properties,
            ScopeResolver scopes,
            ObjectProvider<JsonMapper> jsonMapper) {
        return new KafkaCallSource(
                listeners,
                new KafkaRecordFlow(
                        new RecordKeys(properties.getHeader()),
                        new RecordPayload(jsonMapper.getIfAvailable(JsonMapper::new)),
                        scopes));
    }

    @Bean
    @ConditionalOnMissingBean
    KafkaIdempotency idempotencyKafka(
            RequestIdExecutor requestIds,
            IdempotencyProperties idempotency,
            IdempotencyKafkaProperties properties,
            ObjectProvider<JsonMapper> jsonMapper) {
        IdempotencyProperties.RequestId requestId = idempotency.getRequestId();
        return new KafkaIdempotency(
                requestIds,
                new RecordKeys(properties.getHeader()),
                new RecordPayload(jsonMapper.getIfAvailable(JsonMapper::new)),
                new KafkaIdempotency.Settings(
                        requestId.getTtl(), requestId.getLease(), requestId.getWait(), requestId.isFingerprint()));
    }

    /**
     * Spring Boot hands a single {@code CommonErrorHandler} bean to its listener container factory; an application
     * that defines its own sets it up with {@link KafkaErrorHandling#retryInProgress}.
     */
    @Bean
    @ConditionalOnMissingBean(CommonErrorHandler.class)
    CommonDelegatingErrorHandler idempotencyKafkaErrorHandler(IdempotencyKafkaProperties properties) {
        return KafkaErrorHandling.retryInProgress(new DefaultErrorHandler(), properties.getInProgressRetryInterval());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DefaultKafkaProducerFactoryCustomizer.class)
    @ConditionalOnBooleanProperty("idempotency.kafka.producer.stamp-keys")
    static class ProducerKeyStampingConfiguration {

        @Bean
        DefaultKafkaProducerFactoryCustomizer idempotencyKafkaKeyStamping(IdempotencyKafkaProperties properties) {
            return new ProducerKeyStamping(properties.getHeader());
        }
    }
}
