package dev.idempotency.metrics;

import dev.idempotency.Strategy;
import java.util.Locale;

/**
 * Tag values of every meter and observation of the starter are lower-case snake_case ({@code request_id},
 * {@code in_progress}, {@code in_memory}, {@code first_try}): one style, so that queries and alerts need no guessing.
 */
final class TagValues {

    private TagValues() {}

    /** The {@code strategy} tag: {@code request_id}, {@code token}, {@code lock}. */
    static String of(Strategy strategy) {
        return strategy.name().toLowerCase(Locale.ROOT);
    }
}
