/** {@code @Idempotent} on Kafka listeners: keys from record headers, per-record dedup for batches, key stamping. */
@NullMarked
package dev.idempotency.kafka;

import org.jspecify.annotations.NullMarked;
