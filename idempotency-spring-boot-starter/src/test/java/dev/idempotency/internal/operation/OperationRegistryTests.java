package dev.idempotency.internal.operation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.Idempotent;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class OperationRegistryTests {

    static class Orders {
        @Idempotent
        public String create(String id) {
            return id;
        }

        public String list() {
            return "all";
        }
    }

    private final OperationRegistry registry = new OperationRegistry(new OperationResolver(
            new OperationDefaults(defaults(), defaults(), defaults(), false, Set.of(), false),
            Map.of(),
            value -> value,
            JsonMapper.builder().build(),
            ProtectedInvocation::proceed,
            List.of(),
            List.of()));

    private static OperationDefaults.StrategyDefaults defaults() {
        return new OperationDefaults.StrategyDefaults(
                "Idempotency-Key", Duration.ofHours(1), Duration.ofSeconds(30), Duration.ZERO, true);
    }

    @Test
    void aMethodThatIsNotAnOperationIsResolvedOnceThenAnsweredFromWhatWasKept() throws Exception {
        Method list = Orders.class.getMethod("list");
        assertThat(registry.knows(list, Orders.class)).isFalse();
        assertThat(registry.find(list, Orders.class)).isNull();
        assertThat(registry.knows(list, Orders.class))
                .as("kept: the next request resolves nothing")
                .isTrue();
        assertThat(registry.find(list, Orders.class)).isNull();
        assertThat(registry.operations()).isEmpty();
    }

    @Test
    void anOperationIsResolvedOnceAndFoundAgain() throws Exception {
        Method create = Orders.class.getMethod("create", String.class);
        OperationSpec first = registry.find(create, Orders.class);
        assertThat(first).isNotNull();
        assertThat(registry.find(create, Orders.class)).isSameAs(first);
        assertThat(registry.operations()).containsExactly(first);
    }
}
