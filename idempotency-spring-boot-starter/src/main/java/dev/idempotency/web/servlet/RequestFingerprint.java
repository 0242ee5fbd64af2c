package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HandlerMetadata;
import dev.idempotency.internal.http.ReceivedBody;
import dev.idempotency.internal.http.RequestPayload;
import dev.idempotency.internal.operation.PayloadFields;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.web.servlet.HandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/** The {@link RequestPayload} of a Spring MVC request. */
final class RequestFingerprint {

    private RequestFingerprint() {}

    static String of(
            HttpServletRequest request,
            HandlerMetadata handler,
            @Nullable Object[] arguments,
            PayloadFields fields,
            JsonMapper jsonMapper) {
        // Copied only when there is something to copy: most calls have no parameters and bind no header.
        Map<String, String> pathVariables = Map.of();
        if (request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE) instanceof Map<?, ?> variables
                && !variables.isEmpty()) {
            Map<String, String> copy = new LinkedHashMap<>();
            variables.forEach((name, value) -> copy.put(String.valueOf(name), String.valueOf(value)));
            pathVariables = copy;
        }
        Map<String, List<String>> parameters = Map.of();
        if (!request.getParameterMap().isEmpty()) {
            Map<String, List<String>> copy = new LinkedHashMap<>();
            request.getParameterMap().forEach((name, values) -> copy.put(name, Arrays.asList(values)));
            parameters = copy;
        }
        Map<String, List<String>> headers = Map.of();
        if (!handler.headers().isEmpty()) {
            Map<String, List<String>> copy = new LinkedHashMap<>();
            handler.headers().forEach(name -> copy.put(name, Collections.list(request.getHeaders(name))));
            headers = copy;
        }
        return RequestPayload.fingerprint(
                new RequestPayload.Parts(
                        pathVariables,
                        parameters,
                        headers,
                        files(request),
                        (ReceivedBody) request.getAttribute(ReceivedBody.ATTRIBUTE),
                        handler.body(arguments)),
                fields,
                jsonMapper);
    }

    /** The uploaded files of a multipart request (its text fields are parameters already). */
    private static List<RequestPayload.UploadedFile> files(HttpServletRequest request) {
        String contentType = request.getContentType();
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("multipart/")) {
            return List.of();
        }
        try {
            List<RequestPayload.UploadedFile> files = new ArrayList<>();
            for (Part part : request.getParts()) {
                if (part.getSubmittedFileName() != null) {
                    files.add(new RequestPayload.UploadedFile(
                            part.getName(), part.getSubmittedFileName(), part.getSize(), digest(part)));
                }
            }
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
