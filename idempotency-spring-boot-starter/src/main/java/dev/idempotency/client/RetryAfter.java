package dev.idempotency.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/** Reads an HTTP {@code Retry-After} value (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. */
final class RetryAfter {

    private RetryAfter() {}

    /** The wait the value asks for (zero for a date in the past), or null when absent or unreadable. */
    static @Nullable Duration parse(@Nullable String value, Clock clock) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String trimmed = value.trim();
        if (trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Duration.ofSeconds(Long.parseLong(trimmed));
            } catch (NumberFormatException tooLarge) {
                // Longer than any cap: the caller's max-backoff applies.
                return Duration.ofSeconds(Long.MAX_VALUE);
            }
        }
        try {
            Instant at = ZonedDateTime.parse(trimmed, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
            Duration wait = Duration.between(clock.instant(), at);
            return wait.isNegative() ? Duration.ZERO : wait;
        } catch (DateTimeParseException ex) {
            return null;
        }
    }
}
