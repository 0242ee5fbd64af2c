/** Database access of the JDBC record store; internal. */
@NullMarked
package dev.idempotency.internal.jdbc;

import org.jspecify.annotations.NullMarked;
