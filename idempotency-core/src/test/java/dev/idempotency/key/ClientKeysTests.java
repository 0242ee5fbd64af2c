package dev.idempotency.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.InvalidIdempotencyKeyException;
import dev.idempotency.MissingIdempotencyKeyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClientKeysTests {

    @Test
    void plainAndStructuredFieldFormsGiveTheSameKey() {
        assertThat(ClientKeys.parse("order-123")).isEqualTo("order-123");
        assertThat(ClientKeys.parse("\"order-123\"")).isEqualTo("order-123");
        assertThat(ClientKeys.parse("\"a\\\"b\\\\c\"")).isEqualTo("a\"b\\c");
    }

    @Test
    void longestKeyIsAccepted() {
        assertThat(ClientKeys.parse("k".repeat(255))).hasSize(255);
    }

    @Test
    void missingKeyIsToldApartFromAnInvalidOne() {
        assertThatThrownBy(() -> ClientKeys.parse(null)).isInstanceOf(MissingIdempotencyKeyException.class);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "\"\"",
                "with space",
                "tab\there",
                "é",
                "line\nbreak",
                "\"bad\\escape\"",
                "\"a\"b\"",
                "\u0000"
            })
    void invalidKeysAreRejected(String key) {
        assertThatThrownBy(() -> ClientKeys.parse(key)).isInstanceOf(InvalidIdempotencyKeyException.class);
    }

    @Test
    void tooLongKeyIsRejected() {
        assertThatThrownBy(() -> ClientKeys.parse("k".repeat(256)))
                .isInstanceOf(InvalidIdempotencyKeyException.class)
                .hasMessageContaining("255");
    }

    @Test
    void redisKeysHaveAFixedShapeWhateverTheClientSends() {
        RedisKeys keys = new RedisKeys("idempotency:");
        String key = keys.requestId("alice", "POST /orders", "*?[]{}' \"--\n");
        assertThat(key).matches("idempotency:request-id:[A-Za-z0-9_-]{43}");
        assertThat(keys.requestId("bob", "POST /orders", "k"))
                .isNotEqualTo(keys.requestId("alice", "POST /orders", "k"));
        assertThat(keys.requestId("", "POST /a", "k")).isNotEqualTo(keys.requestId("", "POST /b", "k"));
        assertThat(keys.requestId("ab", "c", "k")).isNotEqualTo(keys.requestId("a", "bc", "k"));
        assertThat(keys.lock("sku-1")).matches("idempotency:lock:\\{[A-Za-z0-9_-]{43}}");
    }
}
