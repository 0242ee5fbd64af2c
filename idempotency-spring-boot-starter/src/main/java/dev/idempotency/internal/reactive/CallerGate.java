package dev.idempotency.internal.reactive;

import dev.idempotency.spi.Permit;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Decides, once, what a caller that goes away leaves behind. Before its call was admitted, the admission is cancelled
 * (a wait ends, and a permit granted after that is settled at once). Once the work holds a permit, the caller's end is
 * not the work's: it runs to completion and is settled as if the caller had stayed.
 */
public final class CallerGate {

    private static final int WAITING = 0;
    private static final int HOLDING = 1;
    private static final int LEFT = 2;

    private final AtomicInteger state = new AtomicInteger(WAITING);
    private volatile @Nullable Permit permit;
    private volatile Duration detachedRenewal = Duration.ZERO;

    /**
     * Offers the call's permit, the one way a granted permit enters the call (see {@link Handover}): {@code true} when
     * its caller is still there and the work is to run; else the permit is failed at once (claim released, token
     * restored, lock released), and {@code false}.
     *
     * @param detachedRenewal how long the permit is still renewed should the caller go away while the work runs
     */
    public boolean offer(Permit granted, Duration detachedRenewal) {
        this.permit = granted;
        this.detachedRenewal = detachedRenewal;
        if (state.compareAndSet(WAITING, HOLDING)) {
            return true;
        }
        granted.fail();
        return false;
    }

    /**
     * The caller went away: {@code true} when no work holds a permit yet, so that the admission is to stop; else the
     * work runs on, {@link Permit#detach detached}.
     */
    public boolean leave() {
        if (state.compareAndSet(WAITING, LEFT)) {
            return true;
        }
        Permit held = permit;
        if (held != null && state.get() == HOLDING) {
            held.detach(detachedRenewal);
        }
        return false;
    }

    /**
     * The caller stopped taking a stream: the work stops ({@code true}), whether it was admitted yet or not. A stream
     * cut off once admitted is settled so by its work's end (the key completes without a result); a permit granted
     * after this is refused.
     */
    public boolean cutOff() {
        state.compareAndSet(WAITING, LEFT);
        return true;
    }
}
