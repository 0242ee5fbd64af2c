package dev.idempotency.web.servlet;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.autoconfigure.IdempotencyProperties;
import dev.idempotency.internal.http.HeldBytes;
import dev.idempotency.internal.http.ReplayedHeaders;
import dev.idempotency.internal.http.TokenIssuer;
import dev.idempotency.internal.http.TokenOperations;
import dev.idempotency.internal.operation.CallSource;
import dev.idempotency.internal.operation.OperationCheck;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.Protection;
import dev.idempotency.scope.PrincipalResolver;
import dev.idempotency.web.IdempotencyProblemHandler;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletRequestListener;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code @Idempotent} on Spring MVC handlers: responses recorded as sent and replayed, the HTTP contract's problem
 * details, the token endpoint, and the servlet principal as key scope.
 */
@AutoConfiguration(after = IdempotencyAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean(IdempotencyAutoConfiguration.class)
public final class IdempotencyWebMvcAutoConfiguration {

    /** The bean Spring Boot gives Spring MVC's async support, when present. */
    private static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

    /**
     * The innermost filter: filters that transform responses (compression, envelopes) then run around it both when a
     * response is stored and when it is replayed, so a replay is transformed exactly once too.
     */
    @Bean
    FilterRegistrationBean<IdempotencyResponseFilter> idempotencyResponseFilter(
            IdempotencyProperties properties,
            ObjectProvider<JsonMapper> jsonMapper,
            ObjectProvider<RequestMappingHandlerAdapter> handlerAdapter,
            BeanFactory beanFactory,
            HeldBytes heldBytes) {
        ReplayedHeaders replayedHeaders =
                new ReplayedHeaders(properties.getRequestId().getReplayedHeaders());
        FilterRegistrationBean<IdempotencyResponseFilter> registration =
                new FilterRegistrationBean<>(new IdempotencyResponseFilter(
                        replayedHeaders,
                        jsonMapper.getIfAvailable(JsonMapper::new),
                        heldBytes,
                        new LateRender(
                                handlerAdapter,
                                beanFactory,
                                replayedHeaders,
                                properties.getRequestId().getMaxResponseSize().toBytes())));
        registration.setOrder(Ordered.LOWEST_PRECEDENCE);
        registration.setAsyncSupported(true);
        registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC, DispatcherType.ERROR);
        return registration;
    }

    /** Settles a call whose {@code sendError} got no error dispatch (no error page): at the end of its request. */
    @Bean
    ServletRequestListener idempotencyExchangeEnd() {
        return new ExchangeEnd();
    }

    /** Keeps the body of a fingerprinted call as received, for its fingerprint. */
    @Bean
    ReceivedBodyAdvice idempotencyReceivedBodyAdvice(OperationRegistry operations) {
        return new ReceivedBodyAdvice(operations);
    }

    @Bean
    ExceptionRecorder idempotencyExceptionRecorder() {
        return new ExceptionRecorder();
    }

    /**
     * Protected {@code Callable}s and streaming bodies run on the executor Spring Boot gives Spring MVC's async support
     * (the {@code applicationTaskExecutor}), wrapped so that Spring MVC's timeout cannot cancel them.
     */
    @Bean
    CallSource idempotencyServletCallSource(
            ObjectProvider<RequestMappingHandlerMapping> mappings,
            ObjectProvider<JsonMapper> jsonMapper,
            IdempotencyProperties properties,
            BeanFactory beanFactory) {
        AsyncTaskExecutor executor = beanFactory.containsBean(APPLICATION_TASK_EXECUTOR)
                ? beanFactory.getBean(APPLICATION_TASK_EXECUTOR, AsyncTaskExecutor.class)
                : new SimpleAsyncTaskExecutor("idempotency-mvc-async-");
        return new ServletCallSource(new ServletExchangeFlow(
                new RouteOperations(mappings),
                jsonMapper.getIfAvailable(JsonMapper::new),
                properties.getRequestId().getMaxResponseSize().toBytes(),
                new MvcAsyncExecution(executor)));
    }

    @Bean
    OperationCheck idempotencyStreamingReturnTypes() {
        return new StreamingReturnTypes();
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotencyProblemHandler idempotencyProblemHandler() {
        return new IdempotencyProblemHandler();
    }

    @Bean
    @ConditionalOnMissingBean
    PrincipalResolver idempotencyPrincipalResolver() {
        return new ServletPrincipalResolver();
    }

    @Bean
    TokenEndpointRegistrar idempotencyTokenEndpoint(
            OperationRegistry operations,
            ObjectProvider<RequestMappingHandlerMapping> requestMappingHandlerMapping,
            TokenIssuer issuer,
            Protection protection,
            IdempotencyProperties properties) {
        IdempotencyProperties.Token token = properties.getToken();
        return new TokenEndpointRegistrar(
                operations,
                requestMappingHandlerMapping,
                new TokenEndpoint(
                        issuer,
                        protection,
                        new TokenOperations(operations, new RouteOperations(requestMappingHandlerMapping).routes())),
                token.getEndpoint().getPath(),
                token.getEndpoint().getEnabled());
    }
}
