package dev.idempotency.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.Await;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Nothing of a response reaches the client before its call is settled (a lock released, a record stored): a client
 * that sends its next request the moment it has the response must find the lock free. A handler interceptor looks at
 * the container's response when the handler and its message conversion are done, which is before the response filter
 * settles the call: it must not be committed yet, or the client could already have it.
 */
@Import(ResponseAfterSettlementTests.CommitProbe.class)
class ResponseAfterSettlementTests extends ShopTest {

    @Autowired
    CommitProbe probe;

    @Autowired
    PromiseController promise;

    @Test
    void aLockedHandlersResponseWaitsForTheRelease() {
        String sku = newKey();
        String path = "/inventory/" + sku + "/hold";
        for (int attempt = 0; attempt < 3; attempt++) {
            assertThat(http.post(path, "{}").statusCode())
                    .as("the lock was free when the last response arrived")
                    .isEqualTo(200);
        }
        assertThat(probe.committedBeforeSettlement(path)).isFalse();
    }

    @Test
    void aLockedAsyncHandlersResponseWaitsForTheRelease() throws Exception {
        String sku = newKey();
        String path = "/promise/locked/" + sku;
        CompletableFuture<HttpResponse<String>> holder = CompletableFuture.supplyAsync(() -> http.post(path, "{}"));
        Await.until(
                Duration.ofSeconds(20), "the handler parked its work", () -> promise.pending("lock-" + sku) != null);
        promise.takePending("lock-" + sku).complete("reserved");
        assertThat(holder.get(20, TimeUnit.SECONDS).body()).isEqualTo("reserved");
        assertThat(probe.committedBeforeSettlement(path)).isFalse();
    }

    @Test
    void aStoredResponseWaitsForTheRecord() {
        String key = newKey();
        assertThat(http.post("/orders", ORDER, "Idempotency-Key", key).statusCode())
                .isEqualTo(201);
        assertThat(probe.committedBeforeSettlement("/orders")).isFalse();
    }

    /** Records, per path, whether the container's response was committed when the handler's processing completed. */
    @TestConfiguration(proxyBeanMethods = false)
    static class CommitProbe implements WebMvcConfigurer, HandlerInterceptor {

        private final Map<String, Boolean> committed = new ConcurrentHashMap<>();

        @Override
        public void addInterceptors(InterceptorRegistry registry) {
            registry.addInterceptor(this);
        }

        @Override
        public void afterCompletion(
                HttpServletRequest request, HttpServletResponse response, Object handler, @Nullable Exception ex) {
            committed.put(request.getRequestURI(), response.isCommitted());
        }

        /** Whether the last response on {@code path} was committed before the response filter settled its call. */
        boolean committedBeforeSettlement(String path) {
            Boolean seen = committed.get(path);
            assertThat(seen).as("a completed request on " + path).isNotNull();
            return seen;
        }
    }
}
