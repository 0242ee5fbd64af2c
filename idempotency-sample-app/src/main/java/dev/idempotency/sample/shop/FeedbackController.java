package dev.idempotency.sample.shop;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Feedback, protected by {@code TOKEN}: the page fetches a one-time token from {@code POST /idempotency/tokens} and
 * sends it in {@code Idempotency-Token}; a second submit with the same token (a double click) gets 409.
 */
@RestController
@RequestMapping("/api/feedback")
public class FeedbackController {

    private final AtomicLong sequence = new AtomicLong();

    /** The body of {@code POST /api/feedback}. */
    public record FeedbackRequest(@Nullable String message) {}

    /** Feedback as saved. */
    public record Feedback(String id, String message, Instant receivedAt) {}

    @PostMapping
    @Idempotent(strategy = Strategy.TOKEN, operation = "feedback")
    public ResponseEntity<Feedback> submit(@RequestBody FeedbackRequest request) {
        String message = request.message();
        // Throwing gives the token back (the starter restores it), so the user can fix the text and submit again.
        InvalidRequestException.check(message != null && !message.isBlank(), "message must not be blank");
        Feedback feedback = new Feedback("fb-" + sequence.incrementAndGet(), message.strip(), Instant.now());
        return ResponseEntity.status(HttpStatus.CREATED).body(feedback);
    }
}
