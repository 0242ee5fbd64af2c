package dev.idempotency.reliability;

import java.lang.reflect.Method;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Opens the report rows of a {@link Scenario} test before it runs, marks them passed or failed after it, and merges the
 * class's rows into the report under {@code target/reliability/} when the class ends, so that a partial run updates its own rows.
 */
final class ScenarioExtension implements BeforeEachCallback, AfterTestExecutionCallback, AfterAllCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        String reproduce = "./mvnw -B -pl idempotency-reliability-tests -am verify -Dtest="
                + context.getRequiredTestClass().getSimpleName() + "#" + method.getName();
        for (Scenario scenario : AnnotationSupport.findRepeatableAnnotations(method, Scenario.class)) {
            ReliabilityReport.open(scenario.id(), scenario.title(), scenario.expected(), reproduce);
        }
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        String result = context.getExecutionException()
                .map(failure -> "FAIL: " + firstLine(failure))
                .orElse("PASS");
        for (Scenario scenario :
                AnnotationSupport.findRepeatableAnnotations(context.getRequiredTestMethod(), Scenario.class)) {
            ReliabilityReport.finish(scenario.id(), result);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ReliabilityReport.writeFile();
    }

    private static String firstLine(Throwable failure) {
        String message = String.valueOf(failure.getMessage()).strip();
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        return failure.getClass().getSimpleName() + " " + (line.length() > 160 ? line.substring(0, 160) + "…" : line);
    }
}
