package dev.idempotency.internal.http;

import dev.idempotency.internal.operation.CanonicalJson;
import dev.idempotency.internal.operation.Fingerprint;
import dev.idempotency.internal.operation.PayloadFields;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payload of an HTTP call, as compared between a request and its retries: path variables, query and form
 * parameters (every value on its own, so {@code ?a=1,2} differs from {@code ?a=1&a=2}), the headers the handler binds
 * with {@code @RequestHeader}, uploaded files (name, file name, size and a digest of the content) and the body as
 * received ({@link ReceivedBody}). Spring MVC and WebFlux feed it the same parts in the same order, so a retry that
 * reaches the other stack of a mixed fleet matches.
 */
public final class RequestPayload {

    private RequestPayload() {}

    /**
     * The payload's fingerprint.
     *
     * @param fields the part of a JSON body that counts
     */
    public static String fingerprint(Parts parts, PayloadFields fields, JsonMapper jsonMapper) {
        Fingerprint fingerprint = new Fingerprint();
        for (Map.Entry<String, String> variable : sorted(parts.pathVariables())) {
            fingerprint.add('p', variable.getKey()).add('v', variable.getValue());
        }
        for (Map.Entry<String, ? extends Collection<String>> parameter : sorted(parts.parameters())) {
            fingerprint.add('q', parameter.getKey());
            parameter.getValue().forEach(value -> fingerprint.add('v', value));
        }
        for (Map.Entry<String, List<String>> header : sorted(parts.headers())) {
            fingerprint.add('h', header.getKey());
            header.getValue().forEach(value -> fingerprint.add('v', value));
        }
        if (!parts.files().isEmpty()) {
            parts.files().stream()
                    .sorted(Comparator.comparing(UploadedFile::name).thenComparing(UploadedFile::fileName))
                    .forEach(file -> fingerprint
                            .add('f', file.name())
                            .add('n', file.fileName())
                            .add('s', Long.toString(file.size()))
                            .add('d', file.digest()));
        }
        if (parts.received() != null && parts.received().bytes().length > 0) {
            parts.received().addTo(fingerprint, 'b', fields);
        } else {
            byte[] bound = bound(parts.bound(), fields, jsonMapper);
            if (bound != null) {
                fingerprint.add('b', bound);
            }
        }
        return fingerprint.digest();
    }

    /** The entries of {@code map} by name; no copy when there is nothing to sort (most calls have no parameters). */
    private static <V> Iterable<Map.Entry<String, V>> sorted(Map<String, V> map) {
        return map.size() < 2 ? map.entrySet() : new TreeMap<>(map).entrySet();
    }

    /**
     * The body when the handler's converter did not read it (nothing bound it through one): the bound value, written
     * as JSON by the application's mapper.
     */
    private static byte @Nullable [] bound(@Nullable Object bound, PayloadFields fields, JsonMapper jsonMapper) {
        if (bound instanceof byte[] raw) {
            return raw;
        }
        if (bound instanceof CharSequence text) {
            return text.toString().getBytes(StandardCharsets.UTF_8);
        }
        return bound == null ? null : CanonicalJson.write(fields.select(jsonMapper.valueToTree(bound)));
    }

    /**
     * The parts of a call's payload.
     *
     * @param pathVariables the route's variables
     * @param parameters query parameters, then form fields, by name
     * @param headers the values of the headers the handler binds, by lower-case name
     * @param files uploaded files, in any order
     * @param received the body as received, or {@code null} when no converter read it
     * @param bound the bound body, or {@code null}
     */
    public record Parts(
            Map<String, String> pathVariables,
            Map<String, ? extends Collection<String>> parameters,
            Map<String, List<String>> headers,
            List<UploadedFile> files,
            @Nullable ReceivedBody received,
            @Nullable Object bound) {}

    /**
     * One uploaded file of a multipart request.
     *
     * @param name the form field
     * @param fileName the submitted file name ({@code "null"} when none was sent)
     * @param size its size in bytes
     * @param digest SHA-256 of its content
     */
    public record UploadedFile(String name, String fileName, long size, byte[] digest) {}
}
