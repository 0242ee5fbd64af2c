package dev.idempotency.internal.operation;

import java.lang.reflect.Method;
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
        MethodBasedEvaluationContext context =
                new MethodBasedEvaluationContext(target, method, arguments, PARAMETER_NAMES);
        Object value = expression.getValue(context);
        return value == null ? null : value.toString();
    }

    public String source() {
        return source;
    }
}
