package dev.idempotency.internal.http;

import dev.idempotency.internal.operation.CanonicalJson;
import dev.idempotency.internal.operation.Fingerprint;
import dev.idempotency.internal.operation.PayloadFields;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;

/**
 * A request body as the client sent it, kept while the handler's message converter (Spring MVC) or decoder (WebFlux)
 * reads it, for the payload fingerprint: nothing the application's mapper does (ignored, write-only or unknown
 * properties, defaults) changes it. A JSON body is compared in {@link CanonicalJson canonical form}, or only the
 * members an operation selects ({@link PayloadFields}); any other body, and JSON that does not parse, byte for byte.
 *
 * @param bytes the body's bytes
 * @param contentType its declared media type, if any
 */
public record ReceivedBody(byte[] bytes, @Nullable MediaType contentType) {

    /** The request attribute (Spring MVC) or exchange attribute (WebFlux) that holds the body of a protected call. */
    public static final String ATTRIBUTE = ReceivedBody.class.getName();

    /** Adds the body to {@code fingerprint} as one part tagged {@code tag}. */
    public void addTo(Fingerprint fingerprint, char tag, PayloadFields fields) {
        if (!isJson(contentType) || !CanonicalJson.addTo(fingerprint, tag, bytes, fields)) {
            fingerprint.add(tag, bytes);
        }
    }

    private static boolean isJson(@Nullable MediaType contentType) {
        return contentType != null
                && (MediaType.APPLICATION_JSON.isCompatibleWith(contentType)
                        || contentType.getSubtype().endsWith("+json"));
    }
}
