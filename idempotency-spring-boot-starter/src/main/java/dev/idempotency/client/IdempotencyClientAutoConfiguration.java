package dev.idempotency.client;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.RestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The client half, when {@code idempotency.client.enabled=true}: calls made with Boot's {@code RestClient.Builder} and
 * {@code WebClient.Builder} (HTTP interface clients built on them included) get an idempotency key and safe retries.
 * It needs neither Redis nor the server half: a pure client application can use it.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
        })
@ConditionalOnClass(HttpMethod.class)
@ConditionalOnBooleanProperty("idempotency.client.enabled")
@EnableConfigurationProperties(IdempotencyClientProperties.class)
public final class IdempotencyClientAutoConfiguration {

    private static RetryRules rules(IdempotencyClientProperties properties) {
        if (properties.getHosts().isEmpty()) {
            LoggerFactory.getLogger(IdempotencyClientAutoConfiguration.class)
                    .warn("idempotency.client.enabled, but idempotency.client.hosts lists no host: no call is retried;"
                            + " list the hosts whose APIs honour the Idempotency-Key header");
        }
        return new RetryRules(properties, Clock.systemUTC());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({RestClient.class, RestClientCustomizer.class})
    static class RestClientConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "idempotencyRestClientCustomizer")
        RestClientCustomizer idempotencyRestClientCustomizer(
                IdempotencyClientProperties properties,
                ObjectProvider<CallOutcomes> outcomes,
                ObjectProvider<Sleeper> sleeper) {
            RetryingRequestInterceptor interceptor = new RetryingRequestInterceptor(
                    rules(properties),
                    outcomes.getIfAvailable(() -> CallOutcomes.NONE),
                    sleeper.getIfAvailable(() -> Sleeper.THREAD));
            // First in the chain, so that the interceptors of other customizers and of the application run inside it,
            // once per attempt; never twice, or attempts would multiply.
            return builder -> builder.requestInterceptors(interceptors -> {
                if (interceptors.stream().noneMatch(RetryingRequestInterceptor.class::isInstance)) {
                    interceptors.add(0, interceptor);
                }
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({WebClient.class, WebClientCustomizer.class})
    static class WebClientConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "idempotencyWebClientCustomizer")
        WebClientCustomizer idempotencyWebClientCustomizer(
                IdempotencyClientProperties properties,
                ObjectProvider<CallOutcomes> outcomes,
                ObjectProvider<ReactiveSleeper> sleeper) {
            RetryingExchangeFilter filter = new RetryingExchangeFilter(
                    rules(properties),
                    outcomes.getIfAvailable(() -> CallOutcomes.NONE),
                    sleeper.getIfAvailable(() -> ReactiveSleeper.TIMER));
            // Outermost, for the same reasons as the RestClient interceptor.
            return builder -> builder.filters(filters -> {
                if (filters.stream().noneMatch(RetryingExchangeFilter.class::isInstance)) {
                    filters.add(0, filter);
                }
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "idempotencyClientMetrics")
        CallOutcomes idempotencyClientMetrics(MeterRegistry meters) {
            return new MicrometerCallOutcomes(meters);
        }
    }
}
