package dev.idempotency.scope;

import org.jspecify.annotations.Nullable;

/** Names the authenticated caller, so that with {@code scope: principal} two users never share a key. */
@FunctionalInterface
public interface PrincipalResolver {

    /** The current caller's name, or {@code null} when the call is anonymous. */
    @Nullable
    String currentPrincipal();
}
