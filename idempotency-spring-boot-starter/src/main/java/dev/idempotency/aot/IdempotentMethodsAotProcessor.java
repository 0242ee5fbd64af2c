package dev.idempotency.aot;

import dev.idempotency.Idempotent;
import dev.idempotency.internal.operation.SuspendingFunctions;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpEntity;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Registers the hints of every bean's {@code @Idempotent} methods: the method itself (found and resolved at startup,
 * invoked through the advisor, its parameter names read by SpEL keys) and, for data binding, its parameter and result
 * types: SpEL keys read properties of the arguments, fingerprints write the arguments as JSON, and stored results of
 * bean methods are written and read as JSON.
 */
public final class IdempotentMethodsAotProcessor implements BeanRegistrationAotProcessor {

    private static final boolean WEB_PRESENT = ClassUtils.isPresent(
            "org.springframework.http.HttpEntity", IdempotentMethodsAotProcessor.class.getClassLoader());

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        List<Method> methods = idempotentMethods(ClassUtils.getUserClass(registeredBean.getBeanClass()));
        if (methods.isEmpty()) {
            return null;
        }
        return (generationContext, code) ->
                register(generationContext.getRuntimeHints().reflection(), methods);
    }

    static List<Method> idempotentMethods(Class<?> type) {
        List<Method> methods = new ArrayList<>();
        ReflectionUtils.doWithMethods(
                type,
                methods::add,
                method -> !method.isBridge()
                        && !method.isSynthetic()
                        && AnnotatedElementUtils.hasAnnotation(method, Idempotent.class));
        return methods;
    }

    private static void register(ReflectionHints reflection, List<Method> methods) {
        BindingReflectionHintsRegistrar binding = new BindingReflectionHintsRegistrar();
        for (Method method : methods) {
            reflection.registerMethod(method, ExecutableMode.INVOKE);
            binding.registerReflectionHints(reflection, method.getGenericParameterTypes());
            binding.registerReflectionHints(reflection, resultType(method));
        }
    }

    /**
     * The body of a {@code ResponseEntity}, as Spring's controller hints do; a {@code suspend fun}'s value; other
     * results as declared.
     */
    private static Type resultType(Method method) {
        if (SuspendingFunctions.isSuspending(method)) {
            return SuspendingFunctions.valueType(method);
        }
        ResolvableType returned = ResolvableType.forMethodReturnType(method);
        if (WEB_PRESENT && HttpEntity.class.isAssignableFrom(returned.toClass())) {
            return returned.as(HttpEntity.class).getGeneric(0).getType();
        }
        return returned.getType();
    }
}
