/** {@code REQUEST_ID} records in the application's database: the settings of the JDBC record store. */
@NullMarked
package dev.idempotency.jdbc;

import org.jspecify.annotations.NullMarked;
