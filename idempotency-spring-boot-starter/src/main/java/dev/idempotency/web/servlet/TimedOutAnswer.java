package dev.idempotency.web.servlet;

import dev.idempotency.RequestInProgressException;
import dev.idempotency.internal.http.Problem;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the caller of a protected call gets when the server's async timeout ends its request while the work still runs:
 * not 503 (that means "not run"), but the contract's {@code 409 request-in-progress} with {@code Retry-After}, which
 * every client treats as "retry with the same key": the retry meets the running work (409) and then its replay.
 */
final class TimedOutAnswer {

    static final String DETAIL = "The server stopped waiting for this request, but it is still running;"
            + " retry with the same idempotency key to get its result";

    private TimedOutAnswer() {}

    static void write(HttpServletResponse response, JsonMapper jsonMapper) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        Problem problem = Problem.IN_PROGRESS;
        RequestInProgressException ex = new RequestInProgressException(DETAIL, java.time.Duration.ofSeconds(1));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", problem.type().toString());
        body.put("title", problem.title());
        body.put("status", problem.status());
        body.put("detail", problem.detail(ex));
        byte[] bytes = jsonMapper.writeValueAsBytes(body);
        response.resetBuffer();
        response.setStatus(problem.status());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        Problem.retryAfterSeconds(ex)
                .ifPresent(seconds -> response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds)));
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
        response.flushBuffer();
    }
}
