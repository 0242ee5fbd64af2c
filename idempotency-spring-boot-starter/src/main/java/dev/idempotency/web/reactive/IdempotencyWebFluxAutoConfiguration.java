package dev.idempotency.web.reactive;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.autoconfigure.IdempotencyProperties;
import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.TokenIssuer;
import dev.idempotency.internal.http.TokenOperations;
import dev.idempotency.internal.operation.OperationCheck;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.scope.ReactiveScopeResolver;
import dev.idempotency.web.IdempotencyProblemHandler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.WebExceptionHandler;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code @Idempotent} on Spring WebFlux handlers, with the contract of Spring MVC: responses recorded as sent and
 * replayed, the same problem details, the token endpoint, and the principal of the exchange as key scope. Redis is
 * called without blocking; only handlers that return a plain value wait, on a blocking executor.
 */
@AutoConfiguration(after = {IdempotencyAutoConfiguration.class, TaskExecutionAutoConfiguration.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass(DispatcherHandler.class)
@ConditionalOnBean(IdempotencyAutoConfiguration.class)
public final class IdempotencyWebFluxAutoConfiguration {

    @Bean
    IdempotencyWebFilter idempotencyWebFilter(
            IdempotencyProperties properties,
            ObjectProvider<WebExceptionHandler> exceptionHandlers,
            OperationRegistry operations,
            HeldBytes heldBytes) {
        return new IdempotencyWebFilter(
                new ReplayedHeaders(properties.getRequestId().getReplayedHeaders()),
                properties.getRequestId().getMaxResponseSize().toBytes(),
                heldBytes,
                new HeldErrors(() -> exceptionHandlers.orderedStream().toList()),
                operations);
    }

    @Bean
    WebFluxExchangeFlow idempotencyWebFluxExchangeFlow(
            ObjectProvider<RequestMappingHandlerMapping> mappings,
            ObjectProvider<JsonMapper> jsonMapper,
            ReactiveScopeResolver scopes) {
        return new WebFluxExchangeFlow(
                new ExchangeRoutes(mappings), jsonMapper.getIfAvailable(JsonMapper::new), scopes);
    }

    @Bean
    BlockingHandlers idempotencyBlockingHandlers(
            OperationRegistry operations,
            @Qualifier(TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME)
                    ObjectProvider<AsyncTaskExecutor> executors,
            Environment environment) {
        AsyncTaskExecutor executor = executors.getIfUnique(() -> {
            SimpleAsyncTaskExecutor fallback = new SimpleAsyncTaskExecutor("idempotency-handler-");
            fallback.setConcurrencyLimit(200);
            return fallback;
        });
        return new BlockingHandlers(operations, executor, environment);
    }

    @Bean
    OperationCheck idempotencyReactiveStreams() {
        return new ReactiveStreams();
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotencyProblemHandler idempotencyProblemHandler() {
        return new IdempotencyProblemHandler();
    }

    @Bean
    ReactiveTokenEndpointRegistrar idempotencyReactiveTokenEndpoint(
            OperationRegistry operations,
            // WebFlux's own mapping: Actuator's controller endpoints have one of the same type
            @Qualifier("requestMappingHandlerMapping") ObjectProvider<RequestMappingHandlerMapping> mappings,
            TokenIssuer issuer,
            Protection protection,
            ReactiveScopeResolver scopes,
            IdempotencyProperties properties) {
        IdempotencyProperties.Token token = properties.getToken();
        return new ReactiveTokenEndpointRegistrar(
                operations,
                mappings,
                new ReactiveTokenEndpoint(
                        issuer,
                        protection,
                        scopes,
                        new TokenOperations(operations, new ExchangeRoutes(mappings).routes())),
                token.getEndpoint().getPath(),
                token.getEndpoint().getEnabled());
    }
}
