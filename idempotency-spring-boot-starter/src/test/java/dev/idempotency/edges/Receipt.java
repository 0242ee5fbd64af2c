package dev.idempotency.edges;

import com.fasterxml.jackson.annotation.JsonView;

/** An answer rendered through a {@code @JsonView}: only the summary is sent, the secret never. */
public record Receipt(@JsonView(Receipt.Summary.class) String id, String secret) {

    /** The view a handler answers with. */
    public interface Summary {}
}
