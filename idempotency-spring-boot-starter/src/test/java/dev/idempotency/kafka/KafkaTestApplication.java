package dev.idempotency.kafka;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;

/**
 * A Kafka application as Spring Boot configures it (listener container factory, producer, error handling), with one
 * container factory of its own, its own record interceptor, and the listeners the tests drive.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({
    OrderListeners.class,
    QuoteListeners.class,
    SlowListeners.class,
    Ledger.class,
    BatchShipments.class,
    StampedListeners.class,
    ScriptedListeners.class
})
class KafkaTestApplication {

    static final String MANUAL_ACK = "manualAckListenerContainerFactory";

    @Bean
    Deliveries deliveries() {
        return new Deliveries();
    }

    /** A factory of the application's, set up as Boot's (interceptor, error handler) but acknowledging by hand. */
    @Bean(MANUAL_ACK)
    ConcurrentKafkaListenerContainerFactory<Object, Object> manualAckListenerContainerFactory(
            ConcurrentKafkaListenerContainerFactoryConfigurer configurer,
            ConsumerFactory<Object, Object> consumerFactory) {
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory =
                new ConcurrentKafkaListenerContainerFactory<>();
        configurer.configure(factory, consumerFactory);
        factory.getContainerProperties().setAckMode(ContainerProperties.AckMode.MANUAL);
        return factory;
    }
}
