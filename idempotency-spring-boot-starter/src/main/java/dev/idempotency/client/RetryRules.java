package dev.idempotency.client;

import dev.idempotency.internal.http.Problem;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import javax.net.ssl.SSLHandshakeException;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the client retries and how long it waits, shared by the RestClient interceptor and the WebClient filter so that
 * both answer alike. Every retry carries the key of the first attempt, so the server runs the work at most once.
 */
final class RetryRules {

    /** 409s that end by themselves: once the first request completes (then replayed) or the lock is free. */
    private static final Set<String> RETRYABLE_CONFLICTS = Set.of(
            Problem.IN_PROGRESS.type().toString(), Problem.LOCK_BUSY.type().toString());

    /** Problem documents are small; a larger 409 body is not read for its type, so it is not retried. */
    static final int MAX_PROBLEM_BYTES = 16 * 1024;

    // Caps the doubling: past 2^20 times the backoff every wait is max-backoff anyway.
    private static final int MAX_DOUBLINGS = 20;

    private final String header;
    private final Set<HttpMethod> methods;
    private final HostPattern hosts;
    private final boolean keyOtherHosts;
    private final int maxAttempts;
    private final Duration backoff;
    private final Duration maxBackoff;
    private final Clock clock;

    RetryRules(IdempotencyClientProperties properties, Clock clock) {
        this.header = properties.getHeader();
        this.methods = Set.copyOf(properties.getMethods());
        this.hosts = new HostPattern(properties.getHosts());
        this.keyOtherHosts = properties.isKeyOtherHosts();
        this.maxAttempts = properties.getMaxAttempts();
        this.backoff = properties.getBackoff();
        this.maxBackoff = properties.getMaxBackoff();
        this.clock = clock;
    }

    String header() {
        return header;
    }

    int maxAttempts() {
        return maxAttempts;
    }

    /** Whether a call with this method to {@code uri} gets a key: a listed host, or any with key-other-hosts. */
    boolean keys(HttpMethod method, URI uri) {
        return methods.contains(method) && (keyOtherHosts || hosts.matches(uri.getHost()));
    }

    /** Whether a keyed call to {@code uri} is retried: only to a listed host, which honours the key. */
    boolean retries(URI uri) {
        return hosts.matches(uri.getHost());
    }

    /**
     * Whether a response may turn out otherwise on a later attempt with the same key: 502, 503, 504, and a 409 whose
     * problem type says the first request is still running or the lock is busy. Never another 4xx: a 400 or 422 will
     * not change, and a retry would only repeat it.
     */
    boolean retryable(int status, @Nullable String problemType) {
        return switch (status) {
            case 502, 503, 504 -> true;
            case 409 -> problemType != null && RETRYABLE_CONFLICTS.contains(problemType);
            default -> false;
        };
    }

    /** Whether the body must be read to decide: a 409 that says it is JSON (RFC 9457 or plain). */
    boolean needsProblemType(int status, @Nullable MediaType contentType) {
        return status == 409
                && contentType != null
                && (contentType.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                        || contentType.isCompatibleWith(MediaType.APPLICATION_JSON));
    }

    /** The RFC 9457 {@code type} of a problem document, or null when the body is none. */
    @Nullable
    String problemType(byte[] body) {
        if (body.length == 0) {
            return null;
        }
        try {
            JsonNode type = JsonMapper.shared().readTree(body).get("type");
            return type != null && type.isString() ? type.asString() : null;
        } catch (JacksonException ex) {
            return null;
        }
    }

    /**
     * Whether a failed exchange may be tried again. Any I/O error may have come after the request was sent (reset,
     * timeout), and the same key makes a second send safe; only errors no retry can heal are final.
     */
    boolean retryable(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnknownHostException || cause instanceof SSLHandshakeException) {
                return false;
            }
        }
        return true;
    }

    /**
     * The wait after failed attempt {@code attempt} (1 for the first): the server's {@code Retry-After} when it gave
     * one, else the backoff doubled for each earlier attempt; never longer than max-backoff.
     */
    Duration delay(int attempt, @Nullable String retryAfter) {
        Duration wait = RetryAfter.parse(retryAfter, clock);
        if (wait == null) {
            wait = backoff.multipliedBy(1L << Math.min(attempt - 1, MAX_DOUBLINGS));
        }
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
    }
}
