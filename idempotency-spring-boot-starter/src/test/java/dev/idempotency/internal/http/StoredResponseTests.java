package dev.idempotency.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoredResponseTests {

    @Test
    void roundTripsStatusHeadersAndBodyByteForByte() {
        List<StoredResponse.Header> headers = List.of(
                new StoredResponse.Header("Content-Type", "application/json"),
                new StoredResponse.Header("Location", "/orders/\u00e9-1"),
                new StoredResponse.Header("Link", "</a>; rel=a"),
                new StoredResponse.Header("Link", "</b>; rel=b"));
        byte[] body = "{\"id\":\"o-1\"}".getBytes(StandardCharsets.UTF_8);
        StoredResponse response = new StoredResponse(201, headers, body);
        StoredResponse decoded = StoredResponse.decode(response.encode());
        assertThat(decoded).isEqualTo(response);
        assertThat(decoded.headers()).containsExactlyElementsOf(headers);
    }

    @Test
    void knownHeaderNamesCostOneByte() {
        StoredResponse response = new StoredResponse(
                200, List.of(new StoredResponse.Header("Content-Type", "application/json")), new byte[0]);
        assertThat(response.encode()).hasSize(4 + 1 + 2 + "application/json".length());
        assertThat(StoredResponse.decode(new StoredResponse(204, List.of(), new byte[0]).encode())
                        .status())
                .isEqualTo(204);
    }

    @Test
    void corruptOrUnknownRecordsAreReportedNotMisread() {
        assertThatThrownBy(() -> StoredResponse.decode(new byte[] {9, 0, (byte) 200, 0}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("version 9");
        assertThatThrownBy(() -> StoredResponse.decode(new byte[] {1, 0})).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void credentialsAndHopByHopHeadersCanNeverBeReplayed() {
        assertThat(new ReplayedHeaders(List.of("X-Request-Id")).names())
                .containsExactly("Content-Type", "Location", "ETag", "X-Request-Id");
        for (String forbidden : List.of("Set-Cookie", "authorization", "Transfer-Encoding", "Connection")) {
            assertThatThrownBy(() -> new ReplayedHeaders(List.of(forbidden)))
                    .hasMessageContaining(forbidden)
                    .hasMessageContaining("never stored");
        }
    }
}
