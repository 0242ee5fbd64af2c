package dev.idempotency.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.internal.operation.OperationRegistry;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class IdempotencyOpenApiAutoConfigurationTests {

    @Test
    void customizersAreConfiguredWithSpringdocInAServletApplication() {
        OpenApiTestContext.runner()
                .run(context -> assertThat(context)
                        .hasSingleBean(IdempotentOperationCustomizer.class)
                        .hasSingleBean(ProblemSchemaCustomizer.class)
                        .hasSingleBean(TokenEndpointCustomizer.class));
    }

    @Test
    void backsOffWithoutSpringdoc() {
        OpenApiTestContext.runner()
                .withClassLoader(new FilteredClassLoader(GlobalOperationCustomizer.class))
                .run(context -> assertThat(context)
                        .hasSingleBean(OperationRegistry.class)
                        .doesNotHaveBean(IdempotentOperationCustomizer.class)
                        .doesNotHaveBean(TokenEndpointCustomizer.class));
    }

    @Test
    void backsOffOutsideWebApplications() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdempotencyOpenApiAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(IdempotentOperationCustomizer.class));
    }

    @Test
    void backsOffWhenTheStarterIsDisabled() {
        OpenApiTestContext.runner()
                .withPropertyValues("idempotency.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(IdempotentOperationCustomizer.class));
    }

    @Test
    void applicationCustomizersWin() {
        OpenApiTestContext.runner().withUserConfiguration(OwnCustomizers.class).run(context -> {
            assertThat(context).hasSingleBean(IdempotentOperationCustomizer.class);
            assertThat(context.getBean(IdempotentOperationCustomizer.class))
                    .isSameAs(context.getBean("ownOperationCustomizer"));
            assertThat(context.getBean(TokenEndpointCustomizer.class))
                    .isSameAs(context.getBean("ownTokenEndpointCustomizer"));
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnCustomizers {

        @Bean
        IdempotentOperationCustomizer ownOperationCustomizer(OperationRegistry registry) {
            return new IdempotentOperationCustomizer(registry, "/tokens", false, false);
        }

        @Bean
        TokenEndpointCustomizer ownTokenEndpointCustomizer() {
            return new TokenEndpointCustomizer(Optional::empty, "X-Token", Duration.ofMinutes(1), false);
        }
    }
}
