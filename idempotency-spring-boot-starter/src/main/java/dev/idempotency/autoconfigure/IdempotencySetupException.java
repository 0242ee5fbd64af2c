package dev.idempotency.autoconfigure;

/** {@code @Idempotent} methods exist, but the library could not set itself up to protect them. */
public class IdempotencySetupException extends IllegalStateException {

    /** What to do about it. */
    private final String action;

    IdempotencySetupException(String method, String reason, String action) {
        super("@Idempotent methods such as " + method + " cannot be protected: " + reason);
        this.action = action;
    }

    /** What to do about it. */
    public String action() {
        return action;
    }
}
