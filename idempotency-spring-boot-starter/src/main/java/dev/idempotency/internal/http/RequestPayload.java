package dev.idempotency.internal.http;

import dev.idempotency.internal.operation.Fingerprint;
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
 * parameters (every value on its own, so {@code ?a=1,2} differs from {@code ?a=1&a=2}), uploaded files (name, file
 * name, size and a digest of the content) and the body as bound to the handler (re-serialized, so equal JSON with
 * other whitespace matches). Spring MVC and WebFlux feed it the same parts in the same order, so a retry that reaches
 * the other stack of a mixed fleet matches.
 */
public final class RequestPayload {

    private RequestPayload() {}

    /**
     * The payload's fingerprint.
     *
     * @param parameters query parameters, then form fields, by name
     * @param files uploaded files, in any order
     * @param body the bound body, or {@code null}
     */
    public static String fingerprint(
            Map<String, String> pathVariables,
            Map<String, ? extends Collection<String>> parameters,
            List<UploadedFile> files,
            @Nullable Object body,
            JsonMapper jsonMapper) {
        Fingerprint fingerprint = new Fingerprint();
        new TreeMap<>(pathVariables)
                .forEach((name, value) -> fingerprint.add('p', name).add('v', value));
        new TreeMap<>(parameters).forEach((name, values) -> {
            fingerprint.add('q', name);
            values.forEach(value -> fingerprint.add('v', value));
        });
        files.stream()
                .sorted(Comparator.comparing(UploadedFile::name).thenComparing(UploadedFile::fileName))
                .forEach(file -> fingerprint
                        .add('f', file.name())
                        .add('n', file.fileName())
                        .add('s', Long.toString(file.size()))
                        .add('d', file.digest()));
        if (body instanceof byte[] raw) {
            fingerprint.add('b', raw);
        } else if (body instanceof CharSequence text) {
            fingerprint.add('b', text.toString().getBytes(StandardCharsets.UTF_8));
        } else if (body != null) {
            fingerprint.add('b', jsonMapper.writeValueAsBytes(body));
        }
        return fingerprint.digest();
    }

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
