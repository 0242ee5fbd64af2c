package dev.idempotency.openapi;

import dev.idempotency.internal.operation.KeyExpression;
import dev.idempotency.internal.operation.OperationSpec;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** The paragraph an {@code @Idempotent} operation's description gets: what the client sends and for how long. */
final class OperationDescriptions {

    private OperationDescriptions() {}

    /** @param tokenPath where tokens are issued, for {@code TOKEN} operations */
    static String of(OperationSpec spec, String tokenPath) {
        return switch (spec.strategy()) {
            case REQUEST_ID -> requestId(spec);
            case TOKEN ->
                "**Idempotent (TOKEN).** Send a one-time token from `POST " + tokenPath + "` ("
                        + (spec.explicitId()
                                ? "`operation=" + spec.id() + "`"
                                : "`operation=` this operation's method and route, such as `POST /orders/{id}`")
                        + ") in the `" + spec.header() + "` header. A token is valid for " + format(spec.ttl())
                        + ", on this operation only, and works once: submitting it again gets 409; a failed call"
                        + " gives it back.";
            case LOCK ->
                "**Idempotent (LOCK).** One call at a time per `" + source(spec.key()) + "`: a concurrent call"
                        + (spec.maxWait().isZero() ? "" : " waits up to " + format(spec.maxWait()) + ", then")
                        + " gets 409 with `Retry-After`.";
        };
    }

    private static String requestId(OperationSpec spec) {
        String key = spec.key() == null
                ? "Send a unique `" + spec.header() + "` header per logical request (1 to 255 visible ASCII characters,"
                        + " plain or as a Structured Field string)."
                        + (spec.proceedWithoutKey()
                                ? " A request without it runs unprotected, as during a rollout of the header."
                                : "")
                : "The idempotency key is `" + source(spec.key()) + "`, taken from the request.";
        return "**Idempotent (REQUEST_ID).** " + key + " A retry with the same key"
                + (spec.fingerprint() ? " and payload" : "") + " within " + format(spec.ttl())
                + " gets the first response again, marked `Idempotent-Replayed: true`, without running again."
                + " While the first is still running, a retry gets 409 with `Retry-After`"
                + (spec.fingerprint() ? "; the same key with another payload gets 422." : ".");
    }

    private static String source(@Nullable KeyExpression key) {
        return key == null ? "" : key.source();
    }

    /** {@code 24h}, {@code 10m}, {@code 30s}: the largest unit that divides the duration, as in application.yml. */
    static String format(Duration duration) {
        if (duration.toMillis() % 1000 != 0) {
            return duration.toMillis() + "ms";
        }
        long seconds = duration.toSeconds();
        if (seconds != 0 && seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        return seconds != 0 && seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }
}
