package dev.idempotency.sample.shop;

import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers the shop's own failures as RFC 9457 problem details, like the starter does for idempotency outcomes. The
 * framework's errors (unreadable JSON, unknown path, wrong method) are problem details too, through
 * {@code spring.mvc.problemdetails.enabled} and {@code spring.webflux.problemdetails.enabled}: every error of the API
 * has one shape, on either web stack.
 */
@RestControllerAdvice
public class ShopProblemHandler {

    @ExceptionHandler(ShopException.class)
    public ResponseEntity<ProblemDetail> handle(ShopException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(ex.status(), ex.getMessage());
        problem.setType(URI.create("urn:shop:problem:" + ex.slug()));
        problem.setTitle(ex.title());
        return ResponseEntity.status(ex.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(problem);
    }
}
