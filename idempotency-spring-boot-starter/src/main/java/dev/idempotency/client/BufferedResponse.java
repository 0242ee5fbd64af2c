package dev.idempotency.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A response whose first bytes were read to learn its problem type; the caller still reads the whole body, those bytes
 * first and then the rest of the stream.
 */
final class BufferedResponse implements ClientHttpResponse {

    private final ClientHttpResponse response;
    private final byte[] head;
    private @Nullable InputStream body;

    BufferedResponse(ClientHttpResponse response, byte[] head) {
        this.response = response;
        this.head = head;
    }

    /** Reads up to {@code limit} bytes of the body: all of it when it is a problem document. */
    static byte[] readHead(ClientHttpResponse response, int limit) throws IOException {
        return response.getBody().readNBytes(limit);
    }

    @Override
    public HttpStatusCode getStatusCode() throws IOException {
        return response.getStatusCode();
    }

    @Override
    public String getStatusText() throws IOException {
        return response.getStatusText();
    }

    @Override
    public HttpHeaders getHeaders() {
        return response.getHeaders();
    }

    @Override
    public InputStream getBody() throws IOException {
        if (body == null) {
            body = new SequenceInputStream(new ByteArrayInputStream(head), response.getBody());
        }
        return body;
    }

    @Override
    public void close() {
        response.close();
    }
}
