package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.ReceivedBody;
import dev.idempotency.internal.operation.OperationRegistry;
import dev.idempotency.internal.operation.OperationSpec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * Keeps the body of a fingerprinted {@code REQUEST_ID} call as the client sent it ({@link ReceivedBody}), read once
 * here and handed to the message converter from memory. Other handlers' bodies are not touched.
 */
@ControllerAdvice
final class ReceivedBodyAdvice extends RequestBodyAdviceAdapter {

    private final OperationRegistry operations;

    ReceivedBodyAdvice(OperationRegistry operations) {
        this.operations = operations;
    }

    @Override
    public boolean supports(
            MethodParameter parameter, Type targetType, Class<? extends HttpMessageConverter<?>> converterType) {
        Method method = parameter.getMethod();
        OperationSpec spec = method == null ? null : operations.find(method, parameter.getContainingClass());
        return spec != null && spec.comparesPayloads();
    }

    @Override
    public HttpInputMessage beforeBodyRead(
            HttpInputMessage message,
            MethodParameter parameter,
            Type targetType,
            Class<? extends HttpMessageConverter<?>> converterType)
            throws IOException {
        byte[] bytes;
        try (InputStream body = message.getBody()) {
            bytes = body.readAllBytes();
        }
        RequestContextHolder.currentRequestAttributes()
                .setAttribute(
                        ReceivedBody.ATTRIBUTE,
                        new ReceivedBody(bytes, message.getHeaders().getContentType()),
                        RequestAttributes.SCOPE_REQUEST);
        HttpHeaders headers = message.getHeaders();
        return new HttpInputMessage() {
            @Override
            public InputStream getBody() {
                return new ByteArrayInputStream(bytes);
            }

            @Override
            public HttpHeaders getHeaders() {
                return headers;
            }
        };
    }
}
