package dev.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.PublicApi;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The core's public API never makes its users name an internal type: {@code RedisIdempotency} builds the strategies,
 * and the strategies are interfaces.
 */
class PublicApiTests {

    @Test
    void noPublicSignatureOutsideTheInternalsNamesAnInternalType() {
        List<Class<?>> api = PublicApi.types();
        assertThat(api).as("public API types found").hasSizeGreaterThan(20);
        // gateway() is documented as internal where declared: the starter's diagnostics read Redis through it.
        assertThat(PublicApi.internalTypeLeaks(api, Set.of("RedisIdempotency.gateway")))
                .as("public constructors and methods that name an internal type")
                .isEmpty();
    }
}
