package dev.idempotency.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoredResponseTests {

    @Test
    void roundTripsStatusHeadersAndBodyByteForByte() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Location", "/orders/\u00e9-1");
        headers.put("X-Other", "kept");
        byte[] body = "{\"id\":\"o-1\"}".getBytes(StandardCharsets.UTF_8);
        StoredResponse response = new StoredResponse(201, headers, body);
        StoredResponse decoded = StoredResponse.decode(response.encode());
        assertThat(decoded).isEqualTo(response);
        assertThat(decoded.headers().keySet()).containsExactly("Content-Type", "Location", "X-Other");
    }

    @Test
    void knownHeaderNamesCostOneByte() {
        StoredResponse response = new StoredResponse(200, Map.of("Content-Type", "application/json"), new byte[0]);
        assertThat(response.encode()).hasSize(4 + 1 + 2 + "application/json".length());
        assertThat(StoredResponse.decode(new StoredResponse(204, Map.of(), new byte[0]).encode())
                        .status())
                .isEqualTo(204);
    }
}
