package dev.idempotency.aop;

import dev.idempotency.requestid.ResultCodec;
import org.jspecify.annotations.Nullable;

/**
 * What a protected call looks like from where it came: an HTTP request handled by the annotated method, or a plain bean
 * method call. It supplies the header, the operation name, the payload fingerprint and how results are stored.
 */
public interface CallBinding {

    /** The value of a request header, or {@code null} (always {@code null} outside HTTP). */
    @Nullable
    String header(String name);

    /** The operation keys are scoped by: HTTP method and route pattern, or the bean method. */
    String operation();

    /** A 22-character digest of the payload. */
    String fingerprint();

    /** How the result is stored for, and handed back to, duplicates. */
    ResultCodec<@Nullable Object> resultCodec();
}
