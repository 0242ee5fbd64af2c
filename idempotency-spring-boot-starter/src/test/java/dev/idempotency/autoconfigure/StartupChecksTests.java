package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.Idempotent;
import dev.idempotency.testsupport.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.NestedExceptionUtils;

/** What startup says about settings and methods that cannot work as written. */
@ExtendWith(OutputCaptureExtension.class)
class StartupChecksTests {

    private static final RedisServer REDIS = RedisServer.start();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(
                    AutoConfigurations.of(DataRedisAutoConfiguration.class, IdempotencyAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=" + REDIS.host(), "spring.data.redis.port=" + REDIS.port());

    /** Methods a proxy never sees: the annotation would silently do nothing. */
    static class Uninterceptable {

        @Idempotent(key = "#id")
        private String hidden(String id) {
            return id;
        }

        @Idempotent(key = "#id")
        public final String sealed(String id) {
            return hidden(id);
        }

        @Idempotent(key = "#id")
        public static String shared(String id) {
            return id;
        }

        @Idempotent(key = "#id")
        public String fine(String id) {
            return id;
        }
    }

    @Test
    void warnsForEachIdempotentMethodTheProxyCannotIntercept(CapturedOutput output) {
        runner.withBean(Uninterceptable.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(output)
                    .contains("@Idempotent on " + Uninterceptable.class.getName() + ".hidden has no effect: a private")
                    .contains(".sealed has no effect: a final")
                    .contains(".shared has no effect: a static")
                    .doesNotContain(".fine has no effect");
        });
    }

    @Test
    void unknownReleaseOutcomesFailStartupNamingThem() {
        runner.withPropertyValues("idempotency.request-id.release-on=exception,server-eror")
                .run(context -> {
                    assertThat(context).hasFailed();
                    StringBuilder messages = new StringBuilder();
                    for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
                        messages.append(cause.getMessage()).append('\n');
                    }
                    assertThat(messages.toString())
                            .contains("Failed to bind properties under 'idempotency.request-id.release-on'")
                            .contains("server-eror");
                });
    }

    @Test
    void releaseOutcomesBindFromTheirKebabCaseNames() {
        runner.withPropertyValues("idempotency.request-id.release-on=exception, client-error-exception")
                .run(context -> assertThat(context.getBean(IdempotencyProperties.class)
                                .getRequestId()
                                .getReleaseOn())
                        .containsExactlyInAnyOrder(
                                dev.idempotency.web.ReleaseOutcome.EXCEPTION,
                                dev.idempotency.web.ReleaseOutcome.CLIENT_ERROR_EXCEPTION));
    }

    @Test
    void tenantScopeNeedsAClaimName() {
        runner.withPropertyValues("idempotency.scope=tenant", "idempotency.tenant.claim= ")
                .withBean(Uninterceptable.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure())
                                    .getMessage())
                            .contains("idempotency.tenant.claim");
                });
    }
}
