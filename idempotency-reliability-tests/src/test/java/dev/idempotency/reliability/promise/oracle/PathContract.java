package dev.idempotency.reliability.promise.oracle;

import dev.idempotency.reliability.promise.Guard;
import java.util.Map;
import java.util.Set;

/**
 * What the contract lets one entry path answer, beside the strategy: the status each outcome of the work is sent
 * with, whether a call that ran may be told "in progress" (Spring MVC's async timeout answers 409
 * {@code request-in-progress} while the work runs on), whether calls are records (Kafka: no status, a reply), and
 * whether a replay carries {@code Idempotent-Replayed: true} (not through a bean: its unprotected endpoint answers).
 */
public record PathContract(
        Guard guard, Map<String, Integer> statusOf, boolean asyncTimeout, boolean records, boolean replayHeader) {

    /** The rendering path's outcomes too: a large or over-size answer is sent 200, an unrenderable one fails 500. */
    private static final Map<String, Integer> HTTP =
            Map.of("ok", 200, "4xx", 404, "5xx", 502, "throw", 500, "large", 200, "oversize", 200, "unrenderable", 500);
    /** A bean has no status: its endpoint answers 200 with the value (a kept 4xx too); an exception is a 500. */
    private static final Map<String, Integer> BEAN = Map.of("ok", 200, "4xx", 200, "5xx", 500, "throw", 500);

    /** The Spring MVC paths whose work outlasts the request thread, under its async timeout (400 ms). */
    private static final Set<String> ASYNC_TIMEOUT =
            Set.of("mvc-future", "mvc-callable", "mvc-webasync", "mvc-mono", "mvc-stream", "mvc-sse", "mvc-flux");

    /** The contract of entry path {@code path} (as the properties name it) under {@code guard}. */
    public static PathContract of(String path, Guard guard) {
        return new PathContract(
                guard,
                path.startsWith("bean") ? BEAN : HTTP,
                ASYNC_TIMEOUT.contains(path),
                path.equals("kafka"),
                !path.startsWith("bean"));
    }

    /**
     * Whether a kept outcome's answer is stored for replay: not one over {@code max-response-size}, nor one that
     * failed to render (the key completes without it; duplicates get 409 {@code result-not-stored}).
     */
    boolean stores(String outcome) {
        return !outcome.equals("oversize") && !outcome.equals("unrenderable");
    }

    /** The status a caller whose work ended with {@code outcome} gets. */
    int status(String outcome) {
        return statusOf.getOrDefault(outcome, 500);
    }

    /**
     * Outcomes that settle the key: stored and replayed, or completed without a stored answer ({@code REQUEST_ID}),
     * or that use the token up. The work returned, so a failure to deliver its answer (over the size limit, failing
     * to render) settles the key as well: it never runs again.
     */
    public boolean keeps(String outcome) {
        return switch (outcome) {
            case "ok", "4xx", "large", "oversize", "unrenderable" -> guard != Guard.LOCK;
            case "5xx" -> guard == Guard.TOKEN;
            default -> false;
        };
    }
}
