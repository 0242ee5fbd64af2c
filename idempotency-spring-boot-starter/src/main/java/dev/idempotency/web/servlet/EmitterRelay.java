package dev.idempotency.web.servlet;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The starter's hold on an emitter the application writes to ({@code SseEmitter}, {@code ResponseBodyEmitter}): Spring
 * MVC gets an emitter of the starter's, and the application's is connected to it through a handler of the starter's,
 * the role Spring MVC's own handler plays. So Spring's async timeout, or a client gone, ends only the starter's emitter,
 * and the end of the application's work is seen: its {@code complete()}, its {@code completeWithError(...)}, or the
 * first send that fails because the caller is gone (the application learns it as it would without the starter, and
 * stops there). Until then the call stays held: a retry meets the running work, never a second one beside it.
 *
 * <p>Spring MVC has no public way to connect an emitter; the handler type and {@code initialize} are package-private,
 * reached here by reflection. Where they are missing (another Spring version), the application's emitter goes to
 * Spring MVC as it is ({@link #isAvailable}), and its call settles when Spring completes it. The application's own
 * timeout and error callbacks are not called (its emitter never times out: the starter's does); its completion
 * callbacks run when its work has ended.
 */
final class EmitterRelay implements InvocationHandler {

    /** Spring MVC's package-private handler type (also named in {@code IdempotencyRuntimeHints}, for AOT). */
    private static final String HANDLER_NAME = ResponseBodyEmitter.class.getName() + "$Handler";

    private static final @Nullable Class<?> HANDLER =
            ClassUtils.isPresent(HANDLER_NAME, EmitterRelay.class.getClassLoader())
                    ? ClassUtils.resolveClassName(HANDLER_NAME, EmitterRelay.class.getClassLoader())
                    : null;

    private static final @Nullable Method INITIALIZE =
            HANDLER == null ? null : ReflectionUtils.findMethod(ResponseBodyEmitter.class, "initialize", HANDLER);

    static {
        if (INITIALIZE != null) {
            ReflectionUtils.makeAccessible(INITIALIZE);
        }
    }

    private final ResponseBodyEmitter forSpring;
    private final MvcAsyncExecution.WorkEnd end;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile @Nullable Runnable completionCallback;

    private EmitterRelay(ResponseBodyEmitter forSpring, MvcAsyncExecution.WorkEnd end) {
        this.forSpring = forSpring;
        this.end = end;
    }

    /** Whether this Spring MVC lets the starter connect an application's emitter. */
    static boolean isAvailable() {
        return INITIALIZE != null;
    }

    /**
     * Connects {@code application} to an emitter of the starter's, returned for Spring MVC; {@code end} hears when the
     * application's work ends. Sends made before this are passed on now.
     */
    static ResponseBodyEmitter adopt(ResponseBodyEmitter application, MvcAsyncExecution.WorkEnd end) {
        Method initialize = INITIALIZE;
        Class<?> handler = HANDLER;
        if (initialize == null || handler == null) {
            return application;
        }
        ResponseBodyEmitter forSpring = application instanceof SseEmitter
                ? new SseEmitter(application.getTimeout())
                : new ResponseBodyEmitter(application.getTimeout());
        EmitterRelay relay = new EmitterRelay(forSpring, end);
        Object connected = Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler}, relay);
        try {
            initialize.invoke(application, connected);
        } catch (InvocationTargetException failed) {
            relay.ended(failed.getCause() == null ? failed : failed.getCause());
        } catch (IllegalAccessException ex) {
            throw new IllegalStateException("Cannot connect the application's emitter", ex);
        }
        return forSpring;
    }

    @Override
    public @Nullable Object invoke(Object proxy, Method method, Object @Nullable [] arguments) throws Throwable {
        Object[] args = arguments == null ? new Object[0] : arguments;
        switch (method.getName()) {
            case "send" -> send(args);
            case "complete" -> {
                ended(null);
                forSpring.complete();
            }
            case "completeWithError" -> {
                ended((Throwable) args[0]);
                forSpring.completeWithError((Throwable) args[0]);
            }
            case "onCompletion" -> completionCallback = (Runnable) args[0];
            case "onTimeout", "onError" -> {
                // not called: the application's emitter never times out, and an error ends its work (a failed send)
            }
            case "equals" -> {
                return proxy == args[0];
            }
            case "hashCode" -> {
                return System.identityHashCode(proxy);
            }
            case "toString" -> {
                return "EmitterRelay to " + forSpring;
            }
            default -> throw new UnsupportedOperationException(method.toString());
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private void send(Object[] args) throws IOException {
        try {
            if (args.length == 2) {
                forSpring.send(args[0], (MediaType) args[1]);
            } else {
                forSpring.send((Set<ResponseBodyEmitter.DataWithMediaType>) args[0]);
            }
        } catch (IOException | IllegalStateException cutOff) {
            // The caller is gone, or Spring ended the request: the stream is cut off, and its work ends here.
            ended(null);
            throw cutOff;
        }
    }

    /** The application's work ended, by itself ({@code failure} or none) or cut off; told once. */
    private void ended(@Nullable Throwable failure) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        end.ended(null, failure);
        Runnable completion = completionCallback;
        if (completion != null) {
            completion.run();
        }
    }
}
