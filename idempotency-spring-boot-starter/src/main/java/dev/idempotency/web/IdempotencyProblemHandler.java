package dev.idempotency.web;

import dev.idempotency.IdempotencyException;
import dev.idempotency.LockLostException;
import dev.idempotency.RetryableIdempotencyException;
import dev.idempotency.aop.Outcome;
import java.net.URI;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers every idempotency outcome as RFC 9457 problem details ({@code application/problem+json}) with the status of
 * the HTTP contract, and {@code Retry-After} where a later attempt may succeed (409 in progress or lock busy, 503).
 * Ordered early so a catch-all handler of the application does not turn these into 500s; replace the bean to change
 * the bodies.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
public class IdempotencyProblemHandler {

    @ExceptionHandler(IdempotencyException.class)
    public ResponseEntity<ProblemDetail> handle(IdempotencyException ex) {
        Problem problem = Problem.of(ex);
        ProblemDetail detail = ProblemDetail.forStatusAndDetail(problem.status, ex.getMessage());
        detail.setType(URI.create("urn:idempotency:problem:" + problem.slug));
        detail.setTitle(problem.title);
        ResponseEntity.BodyBuilder response =
                ResponseEntity.status(problem.status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (ex instanceof RetryableIdempotencyException retryable) {
            response.header(
                    HttpHeaders.RETRY_AFTER,
                    Long.toString(Math.max(1, retryable.retryAfter().toSeconds())));
        }
        return response.body(detail);
    }

    private enum Problem {
        MISSING_KEY(HttpStatus.BAD_REQUEST, "missing-key", "Idempotency key missing"),
        INVALID_KEY(HttpStatus.BAD_REQUEST, "invalid-key", "Invalid idempotency key"),
        IN_PROGRESS(HttpStatus.CONFLICT, "request-in-progress", "Request in progress"),
        MISMATCH(HttpStatus.UNPROCESSABLE_CONTENT, "payload-mismatch", "Idempotency key reused with another payload"),
        TOKEN_USED(HttpStatus.CONFLICT, "token-used", "Token already used"),
        TOKEN_INVALID(HttpStatus.BAD_REQUEST, "token-invalid", "Invalid token"),
        LOCK_BUSY(HttpStatus.CONFLICT, "lock-busy", "Resource busy"),
        LOCK_LOST(HttpStatus.CONFLICT, "lock-lost", "Lock lost while working"),
        STORE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "store-unavailable", "Idempotency store unavailable");

        final HttpStatus status;
        final String slug;
        final String title;

        Problem(HttpStatus status, String slug, String title) {
            this.status = status;
            this.slug = slug;
            this.title = title;
        }

        static Problem of(IdempotencyException ex) {
            if (ex instanceof LockLostException) {
                return LOCK_LOST;
            }
            return switch (Outcome.ofRejection(ex)) {
                case MISSING_KEY -> MISSING_KEY;
                case INVALID_KEY -> INVALID_KEY;
                case IN_PROGRESS -> IN_PROGRESS;
                case MISMATCH -> MISMATCH;
                case TOKEN_USED -> TOKEN_USED;
                case TOKEN_INVALID -> TOKEN_INVALID;
                case LOCK_BUSY -> LOCK_BUSY;
                case STORE_UNAVAILABLE -> STORE_UNAVAILABLE;
                default ->
                    throw new IllegalStateException(
                            "No HTTP mapping for " + ex.getClass().getName());
            };
        }
    }
}
