package dev.idempotency.sample.shop;

import dev.idempotency.Idempotent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Payments, protected by {@code REQUEST_ID} with the key taken from the body ({@code paymentId}) rather than a
 * header, under the {@code payments} policy of {@code application.yml} (responses kept for 48 hours).
 */
@RestController
@RequestMapping("/api/payments")
public class PaymentController {

    // Counts real captures, so a replay is visibly the first answer rather than a second charge.
    private final AtomicLong captures = new AtomicLong();

    /** The body of {@code POST /api/payments}. */
    public record PaymentRequest(
            @Nullable String paymentId,
            @Nullable BigDecimal amount,
            @Nullable String currency) {}

    /** A captured payment. */
    public record Payment(
            String paymentId, BigDecimal amount, String currency, String status, long capture, Instant capturedAt) {}

    @PostMapping
    @Idempotent(key = "#request.paymentId", policy = "payments")
    public ResponseEntity<Payment> pay(@RequestBody PaymentRequest request) {
        String paymentId = request.paymentId();
        BigDecimal amount = request.amount();
        String currency = request.currency();
        // A null paymentId never gets here: the starter answers 400 when the key expression yields nothing.
        InvalidRequestException.check(paymentId != null && !paymentId.isBlank(), "paymentId must not be blank");
        InvalidRequestException.check(amount != null && amount.signum() > 0, "amount must be positive");
        InvalidRequestException.check(
                currency != null && currency.matches("[A-Za-z]{3}"), "currency must be a three-letter ISO code");
        Payment payment = new Payment(
                paymentId,
                amount,
                currency.toUpperCase(Locale.ROOT),
                "CAPTURED",
                captures.incrementAndGet(),
                Instant.now());
        return ResponseEntity.status(HttpStatus.CREATED).body(payment);
    }
}
