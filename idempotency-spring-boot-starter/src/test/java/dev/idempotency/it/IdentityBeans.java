package dev.idempotency.it;

import dev.idempotency.Idempotent;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/** Bean methods whose operations must not collide: inherited methods and overloads. */
public final class IdentityBeans {

    private IdentityBeans() {}

    /** One annotated method that two beans inherit. */
    public abstract static class Handler {

        final AtomicInteger runs = new AtomicInteger();

        @Idempotent(key = "#id")
        public String handle(String id) {
            return getClass().getSimpleName() + "-" + runs.incrementAndGet();
        }
    }

    @Component
    public static class EmailHandler extends Handler {}

    @Component
    public static class SmsHandler extends Handler {}

    /** Two overloads of one name. */
    @Component
    public static class Charges {

        final AtomicInteger runs = new AtomicInteger();

        @Idempotent(key = "#id")
        public String charge(String id) {
            return "charge-" + runs.incrementAndGet();
        }

        @Idempotent(key = "#id")
        public String charge(String id, int amount) {
            return "charge-" + amount + "-" + runs.incrementAndGet();
        }

        /** Shares its records with {@link #charge(String)} on purpose. */
        @Idempotent(key = "#id", operation = "charges")
        public String chargeAgain(String id) {
            return "again-" + runs.incrementAndGet();
        }

        @Idempotent(key = "#id", operation = "charges")
        public String chargeShared(String id) {
            return "shared-" + runs.incrementAndGet();
        }
    }
}
