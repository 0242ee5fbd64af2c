package dev.idempotency.web.reactive;

import dev.idempotency.internal.http.HandlerMetadata;
import dev.idempotency.internal.http.ReceivedBody;
import dev.idempotency.internal.http.RequestPayload;
import dev.idempotency.internal.operation.PayloadFields;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link RequestPayload} of a WebFlux exchange: the same parts as on Spring MVC, read without blocking (form data
 * and multipart parts are cached by the exchange, so the handler still reads them). The body as received is kept by
 * {@link ReceivedBodyRequest} while the decoder reads it. A body bound as a publisher ({@code @RequestBody Mono<Order>})
 * is the handler's to read, and is not part of the fingerprint.
 */
final class ExchangePayload {

    private ExchangePayload() {}

    static Mono<String> fingerprint(
            ServerWebExchange exchange,
            HandlerMetadata handler,
            @Nullable Object[] arguments,
            PayloadFields fields,
            JsonMapper jsonMapper) {
        ServerHttpRequest request = exchange.getRequest();
        Map<String, String> pathVariables =
                exchange.getAttributeOrDefault(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, Map.of());
        Object body = handler.body(arguments);
        Object bound = body instanceof Publisher<?> ? null : body;
        ReceivedBody received = exchange.getAttribute(ReceivedBody.ATTRIBUTE);
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        request.getQueryParams().forEach((name, values) -> parameters.put(name, new ArrayList<>(values)));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        handler.headers().forEach(name -> headers.put(name, request.getHeaders().getValuesAsList(name)));
        MediaType contentType = request.getHeaders().getContentType();
        Function<List<RequestPayload.UploadedFile>, String> digest = files -> RequestPayload.fingerprint(
                new RequestPayload.Parts(pathVariables, parameters, headers, files, received, bound),
                fields,
                jsonMapper);
        if (MediaType.APPLICATION_FORM_URLENCODED.isCompatibleWith(contentType)) {
            return exchange.getFormData().map(form -> {
                addAll(parameters, form);
                return digest.apply(List.of());
            });
        }
        if (MediaType.MULTIPART_FORM_DATA.isCompatibleWith(contentType)) {
            return exchange.getMultipartData()
                    .flatMap(parts -> files(parts, parameters).map(digest));
        }
        return Mono.just(digest.apply(List.of()));
    }

    private static void addAll(Map<String, List<String>> parameters, MultiValueMap<String, String> values) {
        values.forEach((name, list) ->
                parameters.computeIfAbsent(name, key -> new ArrayList<>()).addAll(list));
    }

    /** Text fields become parameters (as a servlet container has them); files are digested. */
    private static Mono<List<RequestPayload.UploadedFile>> files(
            MultiValueMap<String, Part> parts, Map<String, List<String>> parameters) {
        List<Mono<RequestPayload.UploadedFile>> files = new ArrayList<>();
        parts.forEach((name, list) -> {
            for (Part part : list) {
                if (part instanceof FormFieldPart field) {
                    parameters.computeIfAbsent(name, key -> new ArrayList<>()).add(field.value());
                } else if (part instanceof FilePart file) {
                    files.add(digest(file));
                }
            }
        });
        return Flux.concat(files).collectList();
    }

    private static Mono<RequestPayload.UploadedFile> digest(FilePart file) {
        return DataBufferUtils.join(file.content()).map(content -> {
            try {
                MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
                int size = content.readableByteCount();
                byte[] bytes = new byte[size];
                content.read(bytes);
                sha256.update(bytes);
                return new RequestPayload.UploadedFile(file.name(), file.filename(), size, sha256.digest());
            } catch (NoSuchAlgorithmException ex) {
                throw new IllegalStateException(ex);
            } finally {
                DataBufferUtils.release(content);
            }
        });
    }
}
