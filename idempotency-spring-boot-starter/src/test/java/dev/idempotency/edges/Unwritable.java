package dev.idempotency.edges;

/** An answer the work produced but that cannot be written: Jackson calls the getter, which throws. */
public class Unwritable {

    public String getTotal() {
        throw new IllegalStateException("the total cannot be rendered");
    }
}
