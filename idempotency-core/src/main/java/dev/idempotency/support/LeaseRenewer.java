package dev.idempotency.support;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews leases (claims and locks) at a third of their length while work still runs, on one shared daemon thread: no
 * thread or timer is created per call, and a call that ends before the first renewal costs Redis nothing.
 */
public final class LeaseRenewer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaseRenewer.class);

    private final ScheduledThreadPoolExecutor scheduler;

    public LeaseRenewer() {
        scheduler = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "idempotency-lease-renewer");
            thread.setDaemon(true);
            return thread;
        });
        // Most calls end long before their first renewal: drop cancelled tasks at once instead of at their due time.
        scheduler.setRemoveOnCancelPolicy(true);
        // A task that is always due within a second stays at the head of the queue, so scheduling a renewal (due in
        // lease / 3) does not wake the renewer thread on every call: measured 10 us of CPU per request without it.
        scheduler.scheduleAtFixedRate(() -> {}, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Calls {@code renew} every {@code lease / 3} until the returned registration is cancelled. When {@code renew}
     * answers {@code false} the lease is gone (expired, or taken by another owner): renewal stops and {@code onLost}
     * runs. A Redis failure is logged and retried at the next period, since the lease may still be alive.
     */
    public Registration schedule(Duration lease, BooleanSupplier renew, Runnable onLost) {
        long periodMillis = Math.max(1, lease.toMillis() / 3);
        Registration registration = new Registration();
        registration.future = scheduler.scheduleAtFixedRate(
                () -> renewOnce(registration, renew, onLost), periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        return registration;
    }

    private static void renewOnce(Registration registration, BooleanSupplier renew, Runnable onLost) {
        try {
            if (!renew.getAsBoolean()) {
                registration.cancel();
                onLost.run();
            }
        } catch (RuntimeException ex) {
            log.warn("Lease renewal failed; retrying at the next period: {}", ex.getMessage());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /** A scheduled renewal; {@link #cancel()} it when the work ends. */
    public static final class Registration {

        private volatile ScheduledFuture<?> future;

        /** Stops renewing. Safe to call more than once. */
        public void cancel() {
            ScheduledFuture<?> current = future;
            if (current != null) {
                current.cancel(false);
            }
        }
    }
}
