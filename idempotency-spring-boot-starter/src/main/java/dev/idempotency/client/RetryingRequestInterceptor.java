package dev.idempotency.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

/**
 * Gives a covered RestClient call its idempotency key and retries it under {@link RetryRules}, with the same key on
 * every attempt. It ends with the last response, or by throwing the last I/O error. Framework 7 composes the chain per
 * request, so executing the rest of it again is allowed; RestClient has buffered the body already.
 */
final class RetryingRequestInterceptor implements ClientHttpRequestInterceptor {

    private final RetryRules rules;
    private final CallOutcomes outcomes;
    private final Sleeper sleeper;

    RetryingRequestInterceptor(RetryRules rules, CallOutcomes outcomes, Sleeper sleeper) {
        this.rules = rules;
        this.outcomes = outcomes;
        this.sleeper = sleeper;
    }

    @Override
    public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
            throws IOException {
        if (!rules.keys(request.getMethod(), request.getURI())) {
            return execution.execute(request, body);
        }
        HttpHeaders headers = request.getHeaders();
        if (!headers.containsHeader(rules.header())) {
            String bound = IdempotencyKeys.bound();
            headers.set(rules.header(), bound != null ? bound : IdempotencyKeys.newKey());
        }
        if (!rules.retries(request.getURI())) {
            return execution.execute(request, body);
        }
        for (int attempt = 1; ; attempt++) {
            boolean last = attempt >= rules.maxAttempts();
            Duration delay;
            try {
                ClientHttpResponse response = execution.execute(request, body);
                Attempt result = judge(response);
                if (!result.retryable() || last) {
                    outcomes.record(CallOutcome.of(attempt, result.retryable()));
                    return result.response();
                }
                delay = rules.delay(attempt, response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER));
                result.response().close();
            } catch (IOException ex) {
                boolean retryable = rules.retryable(ex);
                if (!retryable || last) {
                    outcomes.record(CallOutcome.of(attempt, retryable));
                    throw ex;
                }
                delay = rules.delay(attempt, null);
            }
            pause(delay);
        }
    }

    /** Reads the status, and for a 409 the problem type; the response returned still has its whole body. */
    private Attempt judge(ClientHttpResponse response) throws IOException {
        int status = response.getStatusCode().value();
        if (!rules.needsProblemType(status, response.getHeaders().getContentType())) {
            return new Attempt(response, rules.retryable(status, null));
        }
        byte[] head;
        try {
            // One byte past the limit tells a problem document from the start of a larger body, which is not one.
            head = BufferedResponse.readHead(response, RetryRules.MAX_PROBLEM_BYTES + 1);
        } catch (IOException | RuntimeException ex) {
            // Lost while reading: the outer catch retries it like any I/O error of the exchange.
            response.close();
            throw readFailure(ex);
        }
        String problemType = head.length > RetryRules.MAX_PROBLEM_BYTES ? null : rules.problemType(head);
        return new Attempt(new BufferedResponse(response, head), rules.retryable(status, problemType));
    }

    /**
     * The failure to read a body as the I/O error it is: Reactor Netty's body stream throws its {@code IOException}
     * wrapped in an unchecked one, and any other failure of a body read can only come from the connection.
     */
    private static IOException readFailure(Exception ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException io) {
                return io;
            }
        }
        return new IOException("Failed to read the response body", ex);
    }

    /**
     * Blocks the calling thread, which is acceptable here: a RestClient call blocks its caller by contract, the wait
     * is bounded by max-backoff and max-attempts, and the thread has nothing else to do until the call ends.
     */
    private void pause(Duration delay) throws InterruptedIOException {
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("Interrupted while waiting to retry");
            interrupted.initCause(ex);
            throw interrupted;
        }
    }

    private record Attempt(ClientHttpResponse response, boolean retryable) {}
}
