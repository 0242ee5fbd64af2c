package dev.idempotency.internal.operation;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/** A SpEL key over method arguments ({@code #order.id}, {@code #p0}), parsed once when the application starts. */
public final class KeyExpression {

    /** MIXED compiles hot expressions to bytecode and falls back to interpretation when types vary. */
    private static final SpelExpressionParser PARSER =
            new SpelExpressionParser(new SpelParserConfiguration(SpelCompilerMode.MIXED, null));

    private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

    private final String source;
    private final Expression expression;
    private final ParameterNames names = new ParameterNames();

    private KeyExpression(String source, Expression expression) {
        this.source = source;
        this.expression = expression;
    }

    /**
     * Parses {@code source}.
     *
     * @throws IllegalArgumentException with the parser's message when it is not valid SpEL
     */
    public static KeyExpression parse(String source) {
        try {
            return new KeyExpression(source, PARSER.parseExpression(source));
        } catch (ParseException ex) {
            throw new IllegalArgumentException("key \"" + source + "\" is not valid SpEL: " + ex.getMessage(), ex);
        }
    }

    /** The key for one call, or {@code null} when the expression yields null. */
    public @Nullable String evaluate(Method method, @Nullable Object[] arguments, @Nullable Object target) {
        return evaluate(method, arguments, target, Map.of());
    }

    /**
     * The key for one call whose expression also sees {@code variables} (a Kafka listener's {@code #record}), or
     * {@code null} when it yields null. A variable given here always wins over a method parameter of the same name,
     * which stays reachable by position ({@code #p0}, {@code #a0}).
     */
    public @Nullable String evaluate(
            Method method, @Nullable Object[] arguments, @Nullable Object target, Map<String, ?> variables) {
        Object value = expression.getValue(new CallContext(target, method, arguments, variables));
        return value == null ? null : value.toString();
    }

    public String source() {
        return source;
    }

    /**
     * The parameter names of the method the key is evaluated for, read once: the discoverer reflects on the method
     * (a {@code Parameter[]} and its names) every time it is asked, and the context asks on every call. A key belongs
     * to one method; another (a bridge, an override) is read again, and then kept instead.
     */
    private static final class ParameterNames implements ParameterNameDiscoverer {

        private volatile @Nullable Named last;

        @Override
        public @Nullable String @Nullable [] getParameterNames(Method method) {
            Named named = last;
            if (named == null || named.method() != method) {
                named = new Named(method, PARAMETER_NAMES.getParameterNames(method));
                last = named;
            }
            return named.names();
        }

        @Override
        public @Nullable String @Nullable [] getParameterNames(Constructor<?> constructor) {
            return PARAMETER_NAMES.getParameterNames(constructor);
        }

        private record Named(Method method, @Nullable String @Nullable [] names) {}
    }

    /**
     * The arguments by name and position, and the given variables, which it looks up first. Setting them on the
     * context would not do: it loads the arguments lazily, at the first name it does not know, and a parameter of the
     * same name would then replace the variable or not depending on which names the expression reads first.
     */
    private final class CallContext extends MethodBasedEvaluationContext {

        private final Map<String, ?> variables;

        CallContext(@Nullable Object target, Method method, @Nullable Object[] arguments, Map<String, ?> variables) {
            super(target, method, arguments, names);
            this.variables = variables;
        }

        @Override
        public @Nullable Object lookupVariable(String name) {
            return variables.containsKey(name) ? variables.get(name) : super.lookupVariable(name);
        }
    }
}
