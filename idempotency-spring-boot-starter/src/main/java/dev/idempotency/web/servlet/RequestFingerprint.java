package dev.idempotency.web.servlet;

import dev.idempotency.internal.operation.Fingerprint;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/**
 * The payload of an HTTP call, as compared between a request and its retries: path variables, query and form
 * parameters (every value on its own, so {@code ?a=1,2} differs from {@code ?a=1&a=2}), uploaded files (name, file
 * name, size and a digest of the content) and the body as bound to the handler (re-serialized, so equal JSON with
 * other whitespace matches).
 */
final class RequestFingerprint {

    private RequestFingerprint() {}

    static String of(
            HttpServletRequest request, HandlerMetadata handler, @Nullable Object[] arguments, JsonMapper jsonMapper) {
        Fingerprint fingerprint = new Fingerprint();
        if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> variables) {
            new TreeMap<>(variables)
                    .forEach((name, value) ->
                            fingerprint.add('p', String.valueOf(name)).add('v', String.valueOf(value)));
        }
        new TreeMap<>(request.getParameterMap()).forEach((name, values) -> {
            fingerprint.add('q', name);
            for (String value : values) {
                fingerprint.add('v', value);
            }
        });
        for (Part file : files(request)) {
            fingerprint
                    .add('f', file.getName())
                    .add('n', String.valueOf(file.getSubmittedFileName()))
                    .add('s', Long.toString(file.getSize()))
                    .add('d', digest(file));
        }
        Object body = body(handler, arguments);
        if (body instanceof byte[] raw) {
            fingerprint.add('b', raw);
        } else if (body instanceof CharSequence text) {
            fingerprint.add('b', text.toString().getBytes(StandardCharsets.UTF_8));
        } else if (body != null) {
            fingerprint.add('b', jsonMapper.writeValueAsBytes(body));
        }
        return fingerprint.digest();
    }

    private static @Nullable Object body(HandlerMetadata handler, @Nullable Object[] arguments) {
        if (handler.bodyIndex() < 0) {
            return null;
        }
        Object argument = arguments[handler.bodyIndex()];
        return handler.entity() && argument instanceof HttpEntity<?> entity ? entity.getBody() : argument;
    }

    /** The uploaded files of a multipart request (its text fields are parameters already), in a stable order. */
    private static List<Part> files(HttpServletRequest request) {
        String contentType = request.getContentType();
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/")) {
            return List.of();
        }
        try {
            List<Part> files = new ArrayList<>();
            for (Part part : request.getParts()) {
                if (part.getSubmittedFileName() != null) {
                    files.add(part);
                }
            }
            files.sort(Comparator.comparing(Part::getName).thenComparing(part -> part.getSubmittedFileName()));
            return files;
        } catch (IOException | ServletException ex) {
            throw new IllegalStateException("Cannot read the parts of a multipart request", ex);
        }
    }

    private static byte[] digest(Part part) {
        try (InputStream content = part.getInputStream()) {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[8192];
            for (int read = content.read(buffer); read >= 0; read = content.read(buffer)) {
                sha256.update(buffer, 0, read);
            }
            return sha256.digest();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
