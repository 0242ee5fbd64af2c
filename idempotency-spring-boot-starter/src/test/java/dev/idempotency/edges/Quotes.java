package dev.idempotency.edges;

import dev.idempotency.Idempotent;
import java.util.concurrent.atomic.AtomicInteger;

/** A bean method whose result is stored as JSON of its return type, counting its runs. */
public class Quotes {

    private final AtomicInteger runs = new AtomicInteger();

    /** A quote, as this version of the application writes it. */
    public record Quote(String id, int run) {}

    @Idempotent(key = "#id")
    public Quote quote(String id) {
        return new Quote(id, runs.incrementAndGet());
    }

    public int runs() {
        return runs.get();
    }
}
