/** Key scopes: whose records a call sees, by authenticated user or by anything a {@link dev.idempotency.scope.ScopeResolver} names. */
@NullMarked
package dev.idempotency.scope;

import org.jspecify.annotations.NullMarked;
