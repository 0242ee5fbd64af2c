package dev.idempotency.web;

import dev.idempotency.IdempotencyException;
import dev.idempotency.internal.http.Problem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers every idempotency outcome as RFC 9457 problem details ({@code application/problem+json}) with the status of
 * the HTTP contract, and {@code Retry-After} where a later attempt may succeed (409 in progress or lock busy, 503).
 * A 503 tells clients only that the store is unavailable; the Redis error is logged. Ordered early so that a
 * catch-all handler of the application does not turn these into 500s; replace the bean to change the bodies.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE + 100)
public class IdempotencyProblemHandler {

    private static final Logger log = LoggerFactory.getLogger(IdempotencyProblemHandler.class);

    @ExceptionHandler(IdempotencyException.class)
    public ResponseEntity<ProblemDetail> handle(IdempotencyException ex) {
        Problem problem = Problem.of(ex);
        if (problem == Problem.STORE_UNAVAILABLE) {
            log.warn("Answering 503: {}", ex.getMessage());
        }
        ProblemDetail detail = ProblemDetail.forStatusAndDetail(
                org.springframework.http.HttpStatusCode.valueOf(problem.status()), problem.detail(ex));
        detail.setType(problem.type());
        detail.setTitle(problem.title());
        ResponseEntity.BodyBuilder response =
                ResponseEntity.status(problem.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON);
        Problem.retryAfterSeconds(ex)
                .ifPresent(seconds -> response.header(HttpHeaders.RETRY_AFTER, Long.toString(seconds)));
        return response.body(detail);
    }
}
