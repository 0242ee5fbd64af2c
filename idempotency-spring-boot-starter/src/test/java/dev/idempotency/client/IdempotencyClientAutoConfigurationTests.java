package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.autoconfigure.IdempotencyAutoConfiguration;
import dev.idempotency.autoconfigure.IdempotencyMisconfigurationAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.WebClient;

/** Each condition of the client auto-configuration, with no Redis anywhere: the client half stands alone. */
class IdempotencyClientAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    IdempotencyAutoConfiguration.class,
                    IdempotencyMisconfigurationAutoConfiguration.class,
                    IdempotencyClientAutoConfiguration.class,
                    RestClientAutoConfiguration.class,
                    WebClientAutoConfiguration.class));

    @Test
    void offUnlessEnabled() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyClientProperties.class);
            assertThat(interceptors(context)).noneMatch(RetryingRequestInterceptor.class::isInstance);
            assertThat(filters(context)).noneMatch(RetryingExchangeFilter.class::isInstance);
        });
    }

    @Test
    void enabledWithoutRedisCoversBothBuildersFirstInTheirChains() {
        runner.withPropertyValues("idempotency.client.enabled=true").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyAutoConfiguration.class);
            assertThat(interceptors(context)).first().isInstanceOf(RetryingRequestInterceptor.class);
            assertThat(filters(context)).first().isInstanceOf(RetryingExchangeFilter.class);
            assertThat(context).doesNotHaveBean(CallOutcomes.class);
        });
    }

    @Test
    void independentOfTheServerHalfSwitch() {
        // Port 1: nothing listens there and nothing here connects; a client-only app turns the server half off.
        runner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
                .withPropertyValues(
                        "idempotency.enabled=false", "idempotency.client.enabled=true", "spring.data.redis.port=1")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(IdempotencyAutoConfiguration.class);
                    assertThat(interceptors(context)).first().isInstanceOf(RetryingRequestInterceptor.class);
                });
    }

    @Test
    void aBuilderCustomizedTwiceRetriesOnce() {
        runner.withPropertyValues("idempotency.client.enabled=true").run(context -> {
            RestClient.Builder builder = context.getBean(RestClient.Builder.class);
            context.getBeanProvider(RestClientCustomizer.class).forEach(customizer -> customizer.customize(builder));
            List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>();
            builder.requestInterceptors(interceptors::addAll);
            assertThat(interceptors)
                    .filteredOn(RetryingRequestInterceptor.class::isInstance)
                    .hasSize(1);
        });
    }

    @Test
    void eachClientNeedsItsOwnClasses() {
        runner.withPropertyValues("idempotency.client.enabled=true")
                .withClassLoader(new FilteredClassLoader(WebClient.class))
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasBean("idempotencyRestClientCustomizer")
                        .doesNotHaveBean(WebClientCustomizer.class));
        runner.withPropertyValues("idempotency.client.enabled=true")
                .withClassLoader(new FilteredClassLoader(RestClient.class))
                .run(context -> assertThat(context)
                        .hasNotFailed()
                        .hasBean("idempotencyWebClientCustomizer")
                        .doesNotHaveBean(RestClientCustomizer.class));
    }

    @Test
    void countsOutcomesOnlyWithAMeterRegistry() {
        runner.withPropertyValues("idempotency.client.enabled=true")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    assertThat(context).hasSingleBean(CallOutcomes.class);
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    assertThat(meters.find(MicrometerCallOutcomes.REQUESTS).counters())
                            .extracting(counter -> counter.getId().getTag("outcome"))
                            .containsExactlyInAnyOrder("first_try", "retried", "exhausted");
                });
    }

    @Test
    void aUserCustomizerWithTheSameNameReplacesOurs() {
        RestClientCustomizer own = builder -> {};
        runner.withPropertyValues("idempotency.client.enabled=true")
                .withBean("idempotencyRestClientCustomizer", RestClientCustomizer.class, () -> own)
                .run(context -> {
                    assertThat(context.getBean("idempotencyRestClientCustomizer"))
                            .isSameAs(own);
                    assertThat(interceptors(context)).noneMatch(RetryingRequestInterceptor.class::isInstance);
                });
    }

    @ParameterizedTest
    @CsvSource({"max-attempts,0", "backoff,0ms", "max-backoff,-1s", "header,''"})
    void invalidSettingsFailStartupNamingTheProperty(String property, String value) {
        runner.withPropertyValues("idempotency.client.enabled=true", "idempotency.client." + property + "=" + value)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .hasMessageContaining("idempotency.client." + property));
    }

    private static List<ClientHttpRequestInterceptor> interceptors(ApplicationContext context) {
        List<ClientHttpRequestInterceptor> interceptors = new ArrayList<>();
        context.getBean(RestClient.Builder.class).requestInterceptors(interceptors::addAll);
        return interceptors;
    }

    private static List<ExchangeFilterFunction> filters(ApplicationContext context) {
        List<ExchangeFilterFunction> filters = new ArrayList<>();
        context.getBean(WebClient.Builder.class).filters(filters::addAll);
        return filters;
    }
}
