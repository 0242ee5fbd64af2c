package dev.idempotency.internal.http;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The response headers a replay repeats: {@code Content-Type}, {@code Location} and {@code ETag}, plus those named in
 * {@code idempotency.request-id.replayed-headers}. Credentials ({@code Set-Cookie}, {@code Authorization}) and
 * hop-by-hop headers are never stored: naming one fails startup.
 */
public final class ReplayedHeaders {

    /** Marks a replayed response, as in the IETF draft's examples and Stripe's API. */
    public static final String REPLAYED = "Idempotent-Replayed";

    static final List<String> DEFAULTS = List.of("Content-Type", "Location", "ETag");

    private static final Set<String> NEVER = Set.of(
            "set-cookie",
            "set-cookie2",
            "authorization",
            "proxy-authorization",
            "www-authenticate",
            "proxy-authenticate",
            "connection",
            "keep-alive",
            "te",
            "trailer",
            "transfer-encoding",
            "upgrade",
            "content-length",
            REPLAYED.toLowerCase(Locale.ROOT));

    private final List<String> names;

    /**
     * @param configured extra header names to store
     * @throws IllegalArgumentException when one of them must never be stored
     */
    public ReplayedHeaders(List<String> configured) {
        Set<String> all = new LinkedHashSet<>(DEFAULTS);
        for (String name : configured) {
            if (NEVER.contains(name.trim().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("idempotency.request-id.replayed-headers names " + name
                        + ", which is never stored: credentials and hop-by-hop headers are not replayed");
            }
            all.add(name.trim());
        }
        this.names = List.copyOf(all);
    }

    /** The stored headers of a response, read by name (a name may have several values). */
    public List<StoredResponse.Header> capture(Function<String, ? extends Iterable<String>> values) {
        List<StoredResponse.Header> headers = new ArrayList<>();
        for (String name : names) {
            for (String value : values.apply(name)) {
                headers.add(new StoredResponse.Header(name, value));
            }
        }
        return headers;
    }

    public List<String> names() {
        return names;
    }
}
