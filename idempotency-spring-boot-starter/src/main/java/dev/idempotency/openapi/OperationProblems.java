package dev.idempotency.openapi;

import dev.idempotency.internal.http.Problem;
import dev.idempotency.internal.operation.OperationSpec;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The problems an {@code @Idempotent} operation can answer, by status, derived from its resolved settings: only what
 * can actually happen is documented (no 422 without fingerprinting, no 503 with {@code on-store-failure: proceed}).
 */
final class OperationProblems {

    /** The problems answered with {@code Retry-After}: those of a {@code RetryableIdempotencyException}. */
    static final Set<Problem> RETRY_AFTER =
            EnumSet.of(Problem.IN_PROGRESS, Problem.LOCK_BUSY, Problem.TOO_MANY_TOKENS, Problem.STORE_UNAVAILABLE);

    private OperationProblems() {}

    /**
     * @param rejectAnonymous whether anonymous callers get 400 ({@code idempotency.anonymous: reject} with keys per
     *     user)
     * @param rejectTenantless whether authenticated callers without a tenant get 403 ({@code scope: tenant} with
     *     {@code idempotency.tenant.missing: reject})
     */
    static Map<Integer, List<Problem>> of(OperationSpec spec, boolean rejectAnonymous, boolean rejectTenantless) {
        List<Problem> problems = new ArrayList<>();
        switch (spec.strategy()) {
            case REQUEST_ID -> {
                if (!spec.proceedWithoutKey()) {
                    problems.add(Problem.MISSING_KEY);
                }
                if (spec.key() == null) {
                    problems.add(Problem.INVALID_KEY); // only a client's header is validated; SpEL keys are hashed
                }
                problems.add(Problem.IN_PROGRESS);
                problems.add(Problem.RESULT_NOT_STORED);
                if (spec.fingerprint()) {
                    problems.add(Problem.MISMATCH);
                }
            }
            case TOKEN -> {
                problems.add(Problem.TOKEN_INVALID);
                problems.add(Problem.TOKEN_USED);
            }
            case LOCK -> {
                problems.add(Problem.MISSING_KEY);
                problems.add(Problem.LOCK_BUSY);
            }
        }
        if (rejectAnonymous) {
            problems.add(Problem.ANONYMOUS);
        }
        if (rejectTenantless) {
            problems.add(Problem.TENANT_MISSING);
        }
        if (!spec.proceedOnStoreFailure()) {
            problems.add(Problem.STORE_UNAVAILABLE);
        }
        Map<Integer, List<Problem>> byStatus = new TreeMap<>();
        problems.forEach(problem -> byStatus.computeIfAbsent(problem.status(), status -> new ArrayList<>())
                .add(problem));
        return byStatus;
    }
}
