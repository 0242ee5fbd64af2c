package dev.idempotency.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.PublicApi;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The starter's public API never makes its users name an internal type: the auto-configurations build what
 * needs one.
 */
class PublicApiTests {

    @Test
    void noPublicSignatureOutsideTheInternalsNamesAnInternalType() {
        List<Class<?>> api = PublicApi.types();
        assertThat(api).as("public API types found").hasSizeGreaterThan(20);
        assertThat(PublicApi.internalTypeLeaks(api, Set.of()))
                .as("public constructors and methods that name an internal type")
                .isEmpty();
    }
}
