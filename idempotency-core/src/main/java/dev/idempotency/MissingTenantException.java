package dev.idempotency;

/**
 * The caller is authenticated, but its credentials name no tenant ({@code idempotency.scope: tenant}): its keys
 * cannot be scoped to a tenant, and sharing them with every other such caller is what tenant scoping exists to prevent
 * (HTTP 403).
 */
public class MissingTenantException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public MissingTenantException(String message) {
        super(message);
    }
}
