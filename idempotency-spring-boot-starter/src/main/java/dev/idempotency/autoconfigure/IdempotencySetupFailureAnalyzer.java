package dev.idempotency.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Spring Boot's failure report for {@link IdempotencySetupException}: why nothing protects the methods, and the fix. */
final class IdempotencySetupFailureAnalyzer extends AbstractFailureAnalyzer<IdempotencySetupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, IdempotencySetupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
