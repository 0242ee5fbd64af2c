package dev.idempotency.bench.load;

/**
 * What the Java driver sends, mirroring {@code wrk/bench.lua}: the same body, header and key scheme, so results from
 * either driver compare.
 */
public final class LoadRequest {

    public static final String NOTE = "padding-to-a-typical-response-size-0123456789abcdefghijklmnopqrstuvwxyz";
    public static final String DUPLICATE_ID = "duplicate-0001";

    private LoadRequest() {}

    /** The JSON body for {@code id}, byte for byte what {@code bench.lua} sends. */
    public static String body(String id) {
        return "{\"id\":\"" + id + "\",\"item\":\"benchmark-widget\",\"quantity\":3,\"amountCents\":129900,"
                + "\"currency\":\"EUR\",\"note\":\"" + NOTE + "\"}";
    }
}
