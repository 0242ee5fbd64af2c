package dev.idempotency.requestid;

import java.nio.charset.StandardCharsets;

/**
 * Turns a result into the bytes stored for duplicates and back. {@link #decode} produces what a duplicate receives
 * instead of running the work; an HTTP binding, for example, writes the stored response there.
 */
public interface ResultCodec<T> {

    /** Whether this result is kept for replay; when not, the claim is released and a retry runs the work again. */
    default boolean shouldStore(T result) {
        return true;
    }

    /**
     * The bytes stored for this result.
     *
     * @param result what the work returned
     * @return the bytes to store
     */
    byte[] encode(T result);

    /**
     * What a duplicate receives in place of running the work.
     *
     * @param stored the bytes {@link #encode} produced
     * @return the result to hand to the duplicate
     */
    T decode(byte[] stored);

    /** Stores nothing: for work whose duplicates need no result (tokens, locks), or that must run every time. */
    static <T> ResultCodec<T> none() {
        return NoResult.instance();
    }

    /** Stores strings as UTF-8. */
    static ResultCodec<String> utf8() {
        return new ResultCodec<>() {
            @Override
            public byte[] encode(String result) {
                return result.getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public String decode(byte[] stored) {
                return new String(stored, StandardCharsets.UTF_8);
            }
        };
    }
}
