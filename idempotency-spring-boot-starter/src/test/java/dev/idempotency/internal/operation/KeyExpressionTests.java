package dev.idempotency.internal.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SpEL keys over the arguments, and over variables a layer adds (Kafka's {@code #record}). */
class KeyExpressionTests {

    /** A listener whose second parameter happens to be called like the variable a layer adds. */
    static class Listener {
        public void onEvent(String event, String record) {}
    }

    private final Method method = method();
    private final Object[] arguments = {"created", "the parameter"};

    @Test
    void argumentsAreSeenByNameAndPosition() {
        assertThat(KeyExpression.parse("#event + '/' + #p1").evaluate(method, arguments, null))
                .isEqualTo("created/the parameter");
    }

    @Test
    void aVariableWinsOverAParameterOfTheSameNameWhateverTheExpressionReadsFirst() {
        Map<String, ?> variables = Map.of("record", "the variable");
        // Reading a parameter first loads every argument into the context; the variable must still win.
        assertThat(KeyExpression.parse("#event + '/' + #record").evaluate(method, arguments, null, variables))
                .isEqualTo("created/the variable");
        assertThat(KeyExpression.parse("#record + '/' + #event").evaluate(method, arguments, null, variables))
                .isEqualTo("the variable/created");
        assertThat(KeyExpression.parse("#a1").evaluate(method, arguments, null, variables))
                .as("the parameter, by its position")
                .isEqualTo("the parameter");
    }

    @Test
    void aKeyThatYieldsNullIsNull() {
        assertThat(KeyExpression.parse("#missing").evaluate(method, arguments, null, Map.of("record", "r")))
                .isNull();
    }

    private static Method method() {
        try {
            return Listener.class.getMethod("onEvent", String.class, String.class);
        } catch (NoSuchMethodException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
