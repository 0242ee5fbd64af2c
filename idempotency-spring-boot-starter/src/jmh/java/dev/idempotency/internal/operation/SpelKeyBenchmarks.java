package dev.idempotency.internal.operation;

import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Evaluating a SpEL key ({@link KeyExpression}, parsed once at startup) against a call's arguments. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class SpelKeyBenchmarks {

    private KeyExpression byName;
    private KeyExpression byIndex;
    private Method method;
    private Object[] arguments;
    private Target target;

    @Setup
    public void setUp() throws NoSuchMethodException {
        byName = KeyExpression.parse("#body.id");
        byIndex = KeyExpression.parse("#p0.id");
        method = Target.class.getMethod("lock", Body.class);
        arguments = new Object[] {new Body("order-4711", "widget", 3)};
        target = new Target();
    }

    /** {@code key = "#body.id"}, as on the bench app's {@code /lock}. */
    @Benchmark
    public String evaluateByName() {
        return byName.evaluate(method, arguments, target);
    }

    /** {@code key = "#p0.id"}. */
    @Benchmark
    public String evaluateByIndex() {
        return byIndex.evaluate(method, arguments, target);
    }

    /** A request body. */
    public record Body(String id, String item, int quantity) {}

    /** A bean with the annotated method's signature. */
    public static class Target {

        /** The method whose parameter names the expression uses. */
        public Body lock(Body body) {
            return body;
        }
    }
}
