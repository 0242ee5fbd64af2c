package dev.idempotency.web.reactive;

import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationSpec;
import dev.idempotency.internal.operation.SuspendingFunctions;
import java.lang.reflect.Method;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.thread.Threading;
import org.springframework.core.Ordered;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.Environment;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.config.BlockingExecutionConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import reactor.core.publisher.Hooks;

/**
 * Lets {@code @Idempotent} WebFlux handlers that return a plain value ({@code T}, {@code ResponseEntity<T>}) wait for
 * Redis without stalling the event loop: WebFlux runs them on the application's task executor (with
 * {@code spring.threads.virtual.enabled}, Spring Boot already runs every such handler on virtual threads), and
 * Reactor's automatic context propagation brings their exchange along. Both are switched on only when such a handler
 * exists; other handlers keep running where they ran.
 */
final class BlockingHandlers implements WebFluxConfigurer, SmartInitializingSingleton, Ordered {

    private static final Logger log = LoggerFactory.getLogger(BlockingHandlers.class);

    private final OperationRegistry operations;
    private final AsyncTaskExecutor executor;
    private final Environment environment;

    BlockingHandlers(OperationRegistry operations, AsyncTaskExecutor executor, Environment environment) {
        this.operations = operations;
        this.executor = executor;
        this.environment = environment;
    }

    /** First, so that an application's own blocking-execution settings win over these. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public void configureBlockingExecution(BlockingExecutionConfigurer configurer) {
        if (!Threading.VIRTUAL.isActive(environment)) {
            configurer.setExecutor(executor);
            configurer.setControllerMethodPredicate(this::isPlainIdempotentHandler);
        }
    }

    @Override
    public void afterSingletonsInstantiated() {
        String plain = operations.operations().stream()
                .filter(BlockingHandlers::isPlainHandler)
                .map(OperationSpec::name)
                .sorted()
                .reduce((first, second) -> first + ", " + second)
                .orElse(null);
        if (plain != null) {
            CurrentExchange.register();
            Hooks.enableAutomaticContextPropagation();
            log.info(
                    "@Idempotent WebFlux handlers returning plain values ({}) run on a blocking executor;"
                            + " Reactor's automatic context propagation is on so that they find their exchange",
                    plain);
        }
    }

    private boolean isPlainIdempotentHandler(HandlerMethod handler) {
        OperationSpec spec = operations.find(handler.getMethod(), handler.getBeanType());
        return spec != null && isPlainHandler(spec);
    }

    /** Whether {@code method} returns a plain value rather than a reactive type (a suspend fun runs as a Mono). */
    static boolean returnsPlainValue(Method method) {
        return ReactiveAdapterRegistry.getSharedInstance().getAdapter(method.getReturnType()) == null
                && !SuspendingFunctions.isSuspending(method);
    }

    private static boolean isPlainHandler(OperationSpec spec) {
        return returnsPlainValue(spec.method())
                && MergedAnnotations.from(spec.method(), MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                        .isPresent("org.springframework.web.bind.annotation.RequestMapping");
    }
}
