package dev.idempotency.autoconfigure;

import dev.idempotency.aop.BeanMethodBinding;
import dev.idempotency.aop.CallBindingFactory;
import dev.idempotency.aop.PrincipalResolver;
import dev.idempotency.aop.ScopeResolver;
import dev.idempotency.token.TokenStore;
import dev.idempotency.web.IdempotencyProblemHandler;
import dev.idempotency.web.ServletPrincipalResolver;
import dev.idempotency.web.TokenEndpoint;
import dev.idempotency.web.WebCallBindingFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.json.JsonMapper;

/** Spring MVC binding: HTTP capture and replay, problem details and the token endpoint, in servlet web applications. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
class IdempotencyWebConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CallBindingFactory idempotencyCallBindingFactory(ObjectProvider<JsonMapper> jsonMapperProvider) {
        JsonMapper jsonMapper = jsonMapperProvider.getIfAvailable(JsonMapper::new);
        return new WebCallBindingFactory(BeanMethodBinding.factory(jsonMapper), jsonMapper);
    }

    @Bean
    @ConditionalOnMissingBean
    PrincipalResolver idempotencyPrincipalResolver() {
        return new ServletPrincipalResolver();
    }

    @Bean
    @ConditionalOnMissingBean
    IdempotencyProblemHandler idempotencyProblemHandler() {
        return new IdempotencyProblemHandler();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(name = "idempotency.token.endpoint.enabled", matchIfMissing = true)
    TokenEndpoint idempotencyTokenEndpoint(IdempotencyProperties properties, TokenStore tokens, ScopeResolver scopes) {
        IdempotencyProperties.Token token = properties.getToken();
        return new TokenEndpoint(tokens, scopes, token.getHeader(), token.getTtl());
    }
}
