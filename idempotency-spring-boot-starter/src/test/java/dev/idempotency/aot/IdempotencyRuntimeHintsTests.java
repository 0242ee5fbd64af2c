package dev.idempotency.aot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.Idempotent;
import dev.idempotency.web.servlet.TokenEndpoint;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

class IdempotencyRuntimeHintsTests {

    private final RuntimeHints hints = new RuntimeHints();

    IdempotencyRuntimeHintsTests() {
        new IdempotencyRuntimeHints().registerHints(hints, getClass().getClassLoader());
    }

    @Test
    void annotationAttributesCanBeRead() {
        assertThat(RuntimeHintsPredicates.reflection()
                        .onType(Idempotent.class)
                        .withMemberCategory(MemberCategory.INVOKE_DECLARED_METHODS))
                .accepts(hints);
    }

    @Test
    void tokenEndpointsCanBeInvokedAndTheirResponsesWritten() throws Exception {
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(TokenEndpoint.class, "issue"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                        .onMethodInvocation("dev.idempotency.web.reactive.ReactiveTokenEndpoint", "issue"))
                .accepts(hints);
        // The bodies they answer with (a Mono's value on WebFlux) are written by Jackson.
        List<Class<?>> bodies = List.of(
                TokenEndpoint.class
                        .getMethod("issue", jakarta.servlet.http.HttpServletRequest.class)
                        .getReturnType(),
                ResolvableType.forMethodReturnType(ReflectionUtils.findMethod(
                                ClassUtils.forName("dev.idempotency.web.reactive.ReactiveTokenEndpoint", null),
                                "issue",
                                org.springframework.web.server.ServerWebExchange.class))
                        .getGeneric(0)
                        .toClass());
        for (Class<?> body : bodies) {
            for (String accessor : new String[] {"token", "header", "expiresInSeconds"}) {
                assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(body, accessor))
                        .as(body.getName() + "." + accessor)
                        .accepts(hints);
            }
        }
    }

    @Test
    void withoutSpringMvcTheServletEndpointIsLeftOut() {
        RuntimeHints withoutMvc = new RuntimeHints();
        new IdempotencyRuntimeHints()
                .registerHints(
                        withoutMvc, new FilteredClassLoader("org.springframework.web.servlet.DispatcherServlet"));
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(TokenEndpoint.class, "issue"))
                .rejects(withoutMvc);
        assertThat(RuntimeHintsPredicates.reflection().onType(Idempotent.class)).accepts(withoutMvc);
    }

    @Test
    void anApplicationsEmitterCanBeConnectedThroughAProxyOfSpringsHandler() {
        assertThat(RuntimeHintsPredicates.proxies()
                        .forInterfaces(TypeReference.of(IdempotencyRuntimeHints.EMITTER_HANDLER)))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                        .onMethodInvocation(
                                org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter.class,
                                "initialize"))
                .accepts(hints);
    }

    @Test
    void typesLookedUpByNameCanBeFound() {
        assertThat(IdempotencyRuntimeHints.LOOKED_UP_BY_NAME)
                .contains("org.springframework.data.redis.connection.RedisConnectionFactory");
        for (String name : IdempotencyRuntimeHints.LOOKED_UP_BY_NAME) {
            assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(name)))
                    .as(name)
                    .accepts(hints);
        }
    }

    @Test
    void isRegisteredInAotFactories() {
        assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
                        .load(org.springframework.aot.hint.RuntimeHintsRegistrar.class))
                .anyMatch(IdempotencyRuntimeHints.class::isInstance);
        assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
                        .load(org.springframework.beans.factory.aot.BeanRegistrationAotProcessor.class))
                .anyMatch(IdempotentMethodsAotProcessor.class::isInstance);
    }
}
