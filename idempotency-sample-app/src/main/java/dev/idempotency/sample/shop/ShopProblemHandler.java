package dev.idempotency.sample.shop;

import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers the shop's own failures as RFC 9457 problem details, like the starter does for idempotency outcomes.
 * Extending {@link ResponseEntityExceptionHandler} turns Spring MVC's errors (unreadable JSON, unknown path, wrong
 * method) into problem details too, so every error of the API has one shape.
 */
@RestControllerAdvice
public class ShopProblemHandler extends ResponseEntityExceptionHandler {

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
