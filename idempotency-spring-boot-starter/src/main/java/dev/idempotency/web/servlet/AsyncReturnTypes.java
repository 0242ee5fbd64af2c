package dev.idempotency.web.servlet;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncTask;

/** The values a Spring MVC handler returns whose work goes on after the handler returned. */
final class AsyncReturnTypes {

    private AsyncReturnTypes() {}

    /** Whether the work behind {@code returned} may still run once the handler returned it. */
    static boolean isAsync(@Nullable Object returned) {
        return returned instanceof CompletionStage<?>
                || returned instanceof Callable<?>
                || returned instanceof WebAsyncTask<?>
                || returned instanceof DeferredResult<?>
                || (returned != null
                        && ReactiveAdapterRegistry.getSharedInstance().getAdapter(returned.getClass()) != null);
    }
}
