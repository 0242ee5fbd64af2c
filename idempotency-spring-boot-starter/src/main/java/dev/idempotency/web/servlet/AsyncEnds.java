package dev.idempotency.web.servlet;

import java.util.concurrent.Callable;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.async.CallableProcessingInterceptor;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.DeferredResultProcessingInterceptor;
import org.springframework.web.context.request.async.WebAsyncManager;

/**
 * Tells the exchange, through Spring MVC's own async interceptors, that its request ended before the async work did:
 * a timeout, or an error of the connection (a client gone). Spring calls them from its own listener, which exists from
 * the start of async processing, so even an error that comes before the filter could add its listener is seen.
 */
final class AsyncEnds {

    private AsyncEnds() {}

    static void watch(WebAsyncManager async, ServletExchange exchange) {
        async.registerDeferredResultInterceptor(AsyncEnds.class, new DeferredResultProcessingInterceptor() {
            @Override
            public <T> boolean handleTimeout(NativeWebRequest request, DeferredResult<T> result) {
                exchange.detachFromCaller();
                return true;
            }

            @Override
            public <T> boolean handleError(NativeWebRequest request, DeferredResult<T> result, Throwable error) {
                exchange.detachFromCaller();
                return true;
            }
        });
        async.registerCallableInterceptor(AsyncEnds.class, new CallableProcessingInterceptor() {
            @Override
            public <T> Object handleTimeout(NativeWebRequest request, Callable<T> task) {
                exchange.detachFromCaller();
                return RESULT_NONE;
            }

            @Override
            public <T> Object handleError(NativeWebRequest request, Callable<T> task, Throwable error) {
                exchange.detachFromCaller();
                return RESULT_NONE;
            }
        });
    }
}
