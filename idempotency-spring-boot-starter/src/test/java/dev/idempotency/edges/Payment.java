package dev.idempotency.edges;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * A payment as a handler binds it: {@code note} is ignored by the mapper, and members the record lacks are dropped
 * when it is bound, so none of them would reach a fingerprint taken of the bound value.
 */
public record Payment(
        BigDecimal amount,
        String currency,
        @JsonIgnore @Nullable String note) {}
