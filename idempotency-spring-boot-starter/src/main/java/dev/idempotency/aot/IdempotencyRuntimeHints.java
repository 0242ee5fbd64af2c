package dev.idempotency.aot;

import dev.idempotency.Idempotent;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * What the starter itself reflects on, whatever the application: the annotation, the types it looks up by name, and
 * the token endpoints, which are mapped by hand rather than found as controller beans. The application's
 * {@code @Idempotent} methods are covered by {@link IdempotentMethodsAotProcessor}; {@code IdempotencyProperties} by
 * Spring Boot's processing of {@code @ConfigurationProperties}. The Lua scripts are Java text blocks, and stored
 * responses a binary format of their own: neither needs a hint.
 */
public final class IdempotencyRuntimeHints implements RuntimeHintsRegistrar {

    /**
     * Types the starter checks for by name with {@code ClassUtils.isPresent}, so that none of them has to be on the
     * classpath: {@code UnprotectedMethodsGuard} (Redis, AOP), {@code StreamingReturnTypes} (streams),
     * {@code ArgumentFingerprint} (arguments left out of fingerprints), {@code HttpRoutes} (Spring Web) and the Kafka
     * listener checks (reactive results). A type that is absent is ignored by the native image build.
     */
    static final List<String> LOOKED_UP_BY_NAME = List.of(
            "org.springframework.data.redis.connection.RedisConnectionFactory",
            "org.aopalliance.intercept.MethodInterceptor",
            "org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody",
            "org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter",
            "org.springframework.core.io.InputStreamResource",
            "reactor.core.publisher.Flux",
            "org.reactivestreams.Publisher",
            "java.io.InputStream",
            "java.io.OutputStream",
            "java.io.Reader",
            "java.io.Writer",
            "java.security.Principal",
            "jakarta.servlet.ServletRequest",
            "jakarta.servlet.ServletResponse",
            "org.springframework.kafka.support.Acknowledgment",
            "org.apache.kafka.clients.consumer.Consumer",
            "org.springframework.web.bind.annotation.RequestMapping");

    /**
     * The token endpoints, each with the class whose presence says its web stack is there. Both are mapped by hand, not
     * found as controller beans by Spring's AOT processing; Spring invokes {@code issue()} reflectively and writes its
     * result with Jackson.
     */
    static final Map<String, String> TOKEN_ENDPOINTS = Map.of(
            "dev.idempotency.web.servlet.TokenEndpoint", "org.springframework.web.servlet.DispatcherServlet",
            "dev.idempotency.web.reactive.ReactiveTokenEndpoint", "org.springframework.web.reactive.DispatcherHandler");

    /** Spring MVC's handler of an emitter, which {@code EmitterRelay} implements with a JDK proxy. */
    static final String EMITTER_HANDLER =
            "org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter$Handler";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        registerEmitterRelay(hints, classLoader);
        // MergedAnnotations reads the attributes by invoking the annotation's methods.
        hints.reflection().registerType(Idempotent.class, MemberCategory.INVOKE_DECLARED_METHODS);
        LOOKED_UP_BY_NAME.forEach(name -> hints.reflection().registerType(TypeReference.of(name)));
        TOKEN_ENDPOINTS.forEach((endpoint, webStack) -> {
            if (ClassUtils.isPresent(webStack, classLoader) && ClassUtils.isPresent(endpoint, classLoader)) {
                registerTokenEndpoint(hints, ClassUtils.resolveClassName(endpoint, classLoader));
            }
        });
    }

    /**
     * {@code EmitterRelay} connects an application's emitter through Spring MVC's package-private handler type: a JDK
     * proxy of it, passed to the emitter's {@code initialize}, invoked reflectively.
     */
    private static void registerEmitterRelay(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        if (!ClassUtils.isPresent(EMITTER_HANDLER, classLoader)) {
            return;
        }
        hints.proxies().registerJdkProxy(TypeReference.of(EMITTER_HANDLER));
        hints.reflection()
                .registerType(
                        TypeReference.of("org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter"),
                        MemberCategory.INVOKE_DECLARED_METHODS);
    }

    private static void registerTokenEndpoint(RuntimeHints hints, Class<?> endpoint) {
        Method issue = Arrays.stream(ReflectionUtils.getDeclaredMethods(endpoint))
                .filter(method -> method.getName().equals("issue"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(endpoint.getName() + " has no issue method to register"));
        hints.reflection().registerMethod(issue, ExecutableMode.INVOKE);
        // The response body: the declared type, or the value of a Mono.
        ResolvableType returned = ResolvableType.forMethodReturnType(issue);
        new BindingReflectionHintsRegistrar()
                .registerReflectionHints(
                        hints.reflection(), (returned.hasGenerics() ? returned.getGeneric(0) : returned).getType());
    }
}
