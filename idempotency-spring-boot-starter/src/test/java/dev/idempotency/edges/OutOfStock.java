package dev.idempotency.edges;

/** A failure of the work that the application answers with {@code 409} and a problem body of its own. */
public class OutOfStock extends RuntimeException {

    public OutOfStock(String message) {
        super(message);
    }
}
