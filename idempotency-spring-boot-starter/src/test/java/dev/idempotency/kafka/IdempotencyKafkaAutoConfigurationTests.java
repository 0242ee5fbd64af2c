package dev.idempotency.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.idempotency.Idempotent;
import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.autoconfigure.IdempotencyMisconfigurationAutoConfiguration;
import dev.idempotency.internal.aop.IdempotencyInterceptor;
import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.internal.operation.InvalidIdempotentMethodException;
import dev.idempotency.testsupport.RedisServer;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.listener.CommonDelegatingErrorHandler;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.CommonLoggingErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.kafka.support.KafkaUtils;

/** When the Kafka layer switches on, what it adds, and what it leaves to the application. */
class IdempotencyKafkaAutoConfigurationTests {

    private static final RedisServer REDIS = RedisServer.start();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    AopAutoConfiguration.class,
                    DataRedisAutoConfiguration.class,
                    IdempotencyAutoConfiguration.class,
                    IdempotencyMisconfigurationAutoConfiguration.class,
                    KafkaAutoConfiguration.class,
                    IdempotencyKafkaAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port());

    public interface Notices {
        String send(String id);

        int sent();
    }

    static class Notifier implements Notices {
        private final AtomicInteger sent = new AtomicInteger();

        @Override
        @Idempotent(key = "#id")
        public String send(String id) {
            return id + "#" + sent.incrementAndGet();
        }

        @Override
        public int sent() {
            return sent.get();
        }
    }

    static class RecordListener {
        @KafkaListener(topics = "t")
        @Idempotent
        public void onValue(String value) {}
    }

    static class BatchListener {
        @KafkaListener(topics = "t", batch = "true")
        @Idempotent
        public void onBatch(List<String> values) {}
    }

    static class RecordsListener {
        @KafkaListener(topics = "t")
        @Idempotent
        public void onRecords(List<ConsumerRecord<String, String>> records) {}
    }

    static class AsyncListener {
        @KafkaListener(topics = "t")
        @Idempotent
        public CompletableFuture<String> onValue(String value) {
            return CompletableFuture.completedFuture(value);
        }
    }

    @Test
    void withSpringKafkaAndTheMainAutoConfigurationTheLayerSwitchesOn() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(KafkaCallSource.class);
            assertThat(context).hasSingleBean(KafkaIdempotency.class);
            assertThat(context).hasSingleBean(ListenerFactoryPostProcessor.class);
            assertThat(context).hasSingleBean(IdempotencyKafkaProperties.class);
            assertThat(context).getBean(CommonErrorHandler.class).isInstanceOf(CommonDelegatingErrorHandler.class);
            assertThat(context).doesNotHaveBean(ProducerKeyStamping.class);
        });
    }

    @Test
    void withoutSpringKafkaTheStarterWorksAndTheLayerStaysOff() {
        runner.withClassLoader(new FilteredClassLoader("org.springframework.kafka", "org.apache.kafka"))
                // An interface proxy: CGLIB cannot define a subclass through the filtering class loader.
                .withPropertyValues("spring.aop.proxy-target-class=false")
                .withBean(Notifier.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(IdempotencyInterceptor.class);
                    assertThat(context).doesNotHaveBean(CallSource.class);
                    assertThat(context).doesNotHaveBean(IdempotencyKafkaProperties.class);
                    Notices notifier = context.getBean(Notices.class);
                    String id = "notice-" + System.nanoTime();
                    String first = notifier.send(id);
                    assertThat(notifier.send(id)).as("replayed").isEqualTo(first);
                    assertThat(notifier.sent()).isEqualTo(1);
                });
    }

    @Test
    void withoutTheMainAutoConfigurationTheLayerStaysOff() {
        runner.withPropertyValues("idempotency.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(KafkaCallSource.class);
            assertThat(context).doesNotHaveBean(KafkaIdempotency.class);
            assertThat(context).doesNotHaveBean(ListenerFactoryPostProcessor.class);
            assertThat(context).doesNotHaveBean(CommonErrorHandler.class);
        });
    }

    @Test
    void theApplicationsErrorHandlerIsLeftAlone() {
        runner.withBean(CommonLoggingErrorHandler.class)
                .run(context -> assertThat(context)
                        .getBean(CommonErrorHandler.class)
                        .isInstanceOf(CommonLoggingErrorHandler.class));
    }

    @Test
    void theRecordBindingJoinsTheApplicationsRecordInterceptorOnEveryFactory() {
        AtomicInteger intercepted = new AtomicInteger();
        RecordInterceptor<Object, Object> own = (record, consumer) -> {
            intercepted.incrementAndGet();
            return record;
        };
        runner.withBean("ownInterceptor", RecordInterceptor.class, () -> own)
                .withBean("ownFactory", ConcurrentKafkaListenerContainerFactory.class)
                .run(context -> {
                    for (String name : List.of("kafkaListenerContainerFactory", "ownFactory")) {
                        ConsumerRecord<Object, Object> record = new ConsumerRecord<>("t", 0, 7, "k", "v");
                        @SuppressWarnings("unchecked")
                        RecordInterceptor<Object, Object> interceptor = context.getBean(
                                        name, ConcurrentKafkaListenerContainerFactory.class)
                                .getRecordInterceptor();
                        assertThat(interceptor.intercept(record, null)).isSameAs(record);
                        assertThat(RecordBinding.current()).as(name).isSameAs(record);
                        interceptor.success(record, null);
                        assertThat(RecordBinding.current()).isNull();
                    }
                    assertThat(intercepted)
                            .as("Boot's factory keeps the application's interceptor")
                            .hasValue(1);
                });
    }

    @Test
    void stampKeysAddsTheInterceptorAfterTheApplicationsOwn() {
        runner.withPropertyValues(
                        "idempotency.kafka.producer.stamp-keys=true",
                        "idempotency.kafka.header=X-Dedup-Key",
                        "spring.kafka.producer.properties.interceptor.classes=com.example.AuditInterceptor")
                .run(context -> {
                    var configs =
                            context.getBean(DefaultKafkaProducerFactory.class).getConfigurationProperties();
                    assertThat(configs.get(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG))
                            .isEqualTo(List.of(
                                    "com.example.AuditInterceptor", IdempotencyKeyProducerInterceptor.class.getName()));
                    assertThat(configs.get(IdempotencyKeyProducerInterceptor.HEADER_CONFIG))
                            .isEqualTo("X-Dedup-Key");
                });
    }

    @Test
    void withoutSpringBootsKafkaModuleTheListenerLayerStillWorksWithoutStamping() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class,
                        IdempotencyAutoConfiguration.class,
                        IdempotencyKafkaAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.kafka"))
                .withPropertyValues(
                        "spring.data.redis.host=" + REDIS.host(),
                        "spring.data.redis.port=" + REDIS.port(),
                        "idempotency.kafka.producer.stamp-keys=true")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(KafkaCallSource.class);
                    assertThat(context).doesNotHaveBean(ProducerKeyStamping.class);
                });
    }

    @Test
    void batchAndAsynchronousListenersAreRefusedAtStartup() {
        for (Class<?> listener : List.of(BatchListener.class, RecordsListener.class, AsyncListener.class)) {
            runner.withBean(listener)
                    .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                            .as(listener.getSimpleName())
                            .isInstanceOf(InvalidIdempotentMethodException.class)
                            .hasMessageContaining(
                                    listener == AsyncListener.class ? "synchronously" : "KafkaIdempotency"));
        }
    }

    @Test
    void aListenerThatAContainerInvokesWithoutTheRecordBindingFailsWithTheReason() {
        // No Kafka auto-configuration, hence no containers: the test thread plays the container's.
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        AopAutoConfiguration.class,
                        DataRedisAutoConfiguration.class,
                        IdempotencyAutoConfiguration.class,
                        IdempotencyKafkaAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port())
                .withBean(RecordListener.class)
                .run(context -> {
                    RecordListener listener = context.getBean(RecordListener.class);
                    KafkaUtils.setConsumerGroupId("notices");
                    try {
                        assertThatIllegalStateException()
                                .isThrownBy(() -> listener.onValue("v"))
                                .withMessageContaining("did not bind the record");
                    } finally {
                        KafkaUtils.clearConsumerGroupId();
                    }
                    assertThatExceptionOfType(MissingIdempotencyKeyException.class)
                            .as("called by the application itself: a bean call, which has no header to read")
                            .isThrownBy(() -> listener.onValue("v"));
                });
    }

    @Test
    void propertiesHaveTheirDefaultsAndBind() {
        IdempotencyKafkaProperties defaults = new IdempotencyKafkaProperties();
        assertThat(defaults.getHeader()).isEqualTo("Idempotency-Key");
        assertThat(defaults.getInProgressRetryInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.getProducer().isStampKeys()).isFalse();
        runner.withPropertyValues(
                        "idempotency.kafka.header=X-Dedup-Key",
                        "idempotency.kafka.in-progress-retry-interval=2s",
                        "idempotency.kafka.producer.stamp-keys=true")
                .run(context -> {
                    IdempotencyKafkaProperties bound = context.getBean(IdempotencyKafkaProperties.class);
                    assertThat(bound.getHeader()).isEqualTo("X-Dedup-Key");
                    assertThat(bound.getInProgressRetryInterval()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(bound.getProducer().isStampKeys()).isTrue();
                });
    }

    /** As the main auto-configuration's test checks: public beans a user may replace back off. */
    @Test
    void everyReplaceableBeanIsConditionalOnMissingBean() {
        for (Method method : IdempotencyKafkaAutoConfiguration.class.getDeclaredMethods()) {
            Class<?> type = method.getReturnType();
            boolean replaceable = method.isAnnotationPresent(Bean.class)
                    && java.lang.reflect.Modifier.isPublic(type.getModifiers())
                    && !type.getName().startsWith("dev.idempotency.internal");
            if (replaceable) {
                assertThat(method.isAnnotationPresent(ConditionalOnMissingBean.class))
                        .as(method.getName())
                        .isTrue();
            }
        }
    }
}
