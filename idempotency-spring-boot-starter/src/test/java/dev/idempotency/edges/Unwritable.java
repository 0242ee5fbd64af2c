package dev.idempotency.edges;

/** An answer that cannot be serialized: one of its getters throws. */
public class Unwritable {

    private final String id;

    public Unwritable(String id) {
        this.id = id;
    }

    public String getId() {
        return id;
    }

    public String getBroken() {
        throw new IllegalStateException("this answer cannot be written");
    }
}
