package dev.idempotency.kafka;

import dev.idempotency.Strategy;
import dev.idempotency.internal.operation.OperationCheck;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.kafka.annotation.KafkaHandler;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.annotation.KafkaListeners;
import org.springframework.messaging.Message;
import org.springframework.util.ClassUtils;

/**
 * Which methods are Kafka record listeners ({@code @KafkaListener}, or {@code @KafkaHandler} of a class-level
 * listener), and the startup check of those that are {@code @Idempotent}: the record binding serves listeners that
 * take one record at a time and return their result, so batch and asynchronous listeners are refused with the way out.
 */
final class ListenerMethods implements OperationCheck {

    private static final String PUBLISHER = "org.reactivestreams.Publisher";

    private final Map<Method, Boolean> listeners = new ConcurrentHashMap<>();

    /** Whether {@code method} is invoked by a listener container for each record. */
    boolean isListener(Method method) {
        return listeners.computeIfAbsent(method, ListenerMethods::annotated);
    }

    private static boolean annotated(Method method) {
        MergedAnnotations annotations = MergedAnnotations.from(method, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY);
        return annotations.isPresent(KafkaListener.class)
                || annotations.isPresent(KafkaHandler.class)
                || annotations.isPresent(KafkaListeners.class);
    }

    @Override
    public void check(Method method, Strategy strategy) {
        if (!isListener(method)) {
            return;
        }
        if (isBatch(method)) {
            throw new IllegalArgumentException("a batch @KafkaListener receives many records in one call, and"
                    + " @Idempotent protects one call; dedup each record with KafkaIdempotency.processEach instead");
        }
        if (isAsynchronous(method)) {
            throw new IllegalArgumentException("@Idempotent @KafkaListener methods must return their result"
                    + " synchronously, not " + method.getReturnType().getSimpleName() + "; do the asynchronous work"
                    + " inside, or dedup with KafkaIdempotency");
        }
    }

    /** A future or a reactive publisher: the container would acknowledge later, on another thread. */
    private static boolean isAsynchronous(Method method) {
        Class<?> returnType = method.getReturnType();
        ClassLoader loader = method.getDeclaringClass().getClassLoader();
        return CompletionStage.class.isAssignableFrom(returnType)
                || (ClassUtils.isPresent(PUBLISHER, loader)
                        && ClassUtils.resolveClassName(PUBLISHER, loader).isAssignableFrom(returnType));
    }

    private static boolean isBatch(Method method) {
        MergedAnnotation<KafkaListener> listener = MergedAnnotations.from(
                        method, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .get(KafkaListener.class);
        if (listener.isPresent()
                && "true".equalsIgnoreCase(listener.getString("batch").trim())) {
            return true;
        }
        for (int i = 0; i < method.getParameterCount(); i++) {
            ResolvableType type = ResolvableType.forMethodParameter(method, i);
            if (ConsumerRecords.class.isAssignableFrom(type.toClass())) {
                return true;
            }
            if (List.class.isAssignableFrom(type.toClass())) {
                Class<?> element = type.asCollection().getGeneric(0).toClass();
                if (ConsumerRecord.class.isAssignableFrom(element) || Message.class.isAssignableFrom(element)) {
                    return true;
                }
            }
        }
        return false;
    }
}
