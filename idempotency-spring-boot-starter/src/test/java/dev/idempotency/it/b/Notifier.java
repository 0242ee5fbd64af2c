package dev.idempotency.it.b;

import dev.idempotency.Idempotent;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/** A notifier whose simple class name another package uses too. */
@Component("notifierB")
public class Notifier {

    private final AtomicInteger runs = new AtomicInteger();

    @Idempotent(key = "#id")
    public String send(String id) {
        return "b-" + runs.incrementAndGet();
    }
}
