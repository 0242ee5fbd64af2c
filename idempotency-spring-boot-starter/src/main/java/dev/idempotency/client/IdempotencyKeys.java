package dev.idempotency.client;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;

/**
 * Idempotency keys for outgoing calls, and a way to bind one key to a block of work.
 *
 * <p>The client retries a call itself with one key for all its attempts. A caller that retries on its own, with Spring
 * Framework's {@code @Retryable} or {@code RetryTemplate}, or Reactor's {@code retryWhen}, makes a new call per attempt,
 * and each would get a new key, so the server would run the work again. Bind the key to the logical call instead:
 *
 * <ul>
 *   <li>set the header yourself with a key made once, outside the retried block ({@link #newKey()});
 *   <li>or run the retried block inside {@link #callWithNewKey(Supplier)} / {@link #callWithKey(String, Supplier)}:
 *       every covered RestClient call on this thread inside the block without a key of its own gets the bound key;
 *   <li>or, for WebClient, write the key into the Reactor context below the retry:
 *       {@code .retryWhen(...).contextWrite(Context.of(IdempotencyKeys.CONTEXT_KEY, key))}.
 * </ul>
 *
 * <p>Bind one key per logical call: the server keeps one response per key and operation, so two different requests to
 * one endpoint inside one bound block would meet as a payload mismatch (422).
 */
public final class IdempotencyKeys {

    /** Reactor context key whose value, a key, the WebClient filter uses for a call without a key of its own. */
    public static final String CONTEXT_KEY = IdempotencyKeys.class.getName() + ".key";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ThreadLocal<@Nullable String> BOUND = new ThreadLocal<>();

    private IdempotencyKeys() {}

    /** A new random key: 128 bits, base64url without padding (22 characters). */
    public static String newKey() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Runs {@code work} with {@code key} bound to this thread, for the RestClient calls it makes (and retries). */
    public static <T> T callWithKey(String key, Supplier<T> work) {
        Assert.hasText(key, "key must not be empty");
        String outer = BOUND.get();
        BOUND.set(key);
        try {
            return work.get();
        } finally {
            if (outer == null) {
                BOUND.remove();
            } else {
                BOUND.set(outer);
            }
        }
    }

    /** Runs {@code work} with a {@linkplain #newKey() new key} bound to this thread. */
    public static <T> T callWithNewKey(Supplier<T> work) {
        return callWithKey(newKey(), work);
    }

    /** The key bound to this thread, if any. */
    static @Nullable String bound() {
        return BOUND.get();
    }
}
