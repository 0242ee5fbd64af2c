/** A small shop API that shows every {@code @Idempotent} strategy; run {@link dev.idempotency.sample.SampleApplication}. */
@org.jspecify.annotations.NullMarked
package dev.idempotency.sample;
