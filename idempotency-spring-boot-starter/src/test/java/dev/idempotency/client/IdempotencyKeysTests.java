package dev.idempotency.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** New keys are 128 random bits in base64url; bound keys nest and are always unbound afterwards. */
class IdempotencyKeysTests {

    @Test
    void newKeysAre128BitBase64Url() {
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String key = IdempotencyKeys.newKey();
            assertThat(key).matches("[A-Za-z0-9_-]{22}");
            assertThat(Base64.getUrlDecoder().decode(key)).hasSize(16);
            keys.add(key);
        }
        assertThat(keys).hasSize(1000);
    }

    @Test
    void boundKeysNestAndAreUnboundAfterTheBlock() {
        assertThat(IdempotencyKeys.bound()).isNull();
        String seen = IdempotencyKeys.callWithKey("outer", () -> {
            String inner = IdempotencyKeys.callWithKey("inner", IdempotencyKeys::bound);
            return inner + "," + IdempotencyKeys.bound();
        });
        assertThat(seen).isEqualTo("inner,outer");
        assertThat(IdempotencyKeys.bound()).isNull();
    }

    @Test
    void theKeyIsUnboundWhenTheBlockThrows() {
        assertThatThrownBy(() -> IdempotencyKeys.callWithNewKey(() -> {
                    throw new IllegalStateException("failed");
                }))
                .hasMessage("failed");
        assertThat(IdempotencyKeys.bound()).isNull();
    }
}
