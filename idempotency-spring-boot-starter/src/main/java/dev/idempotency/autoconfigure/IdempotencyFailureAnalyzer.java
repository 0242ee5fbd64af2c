package dev.idempotency.autoconfigure;

import dev.idempotency.internal.operation.InvalidIdempotentMethodException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns a misconfigured {@code @Idempotent} method into Spring Boot's failure report: what is wrong, and what to do. */
final class IdempotencyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidIdempotentMethodException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidIdempotentMethodException cause) {
        return new FailureAnalysis(cause.getMessage(), action(cause), cause);
    }

    private static String action(InvalidIdempotentMethodException cause) {
        String problem = cause.problem();
        if (problem.startsWith("unknown policy")) {
            return "Define the policy under idempotency.policies, or correct the policy name on " + cause.methodName()
                    + ".";
        }
        if (problem.contains("SpEL")) {
            return "Correct the key expression of " + cause.methodName()
                    + "; it is SpEL over the method's arguments, e.g. key = \"#order.id\".";
        }
        return "Correct the @Idempotent attributes of " + cause.methodName() + " or the idempotency.* settings"
                + " they use.";
    }
}
