package dev.idempotency.internal.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One bound on the response bytes held back across every call in flight ({@code idempotency.max-held-bytes}): each
 * response is held until its call is settled, and a thousand large answers at once must not hold gigabytes. A
 * response whose next bytes find the bound reached is treated as over-size: sent as written, not stored.
 */
public final class HeldBytes {

    private final long limit;
    private final AtomicLong held = new AtomicLong();

    public HeldBytes(long limit) {
        this.limit = limit;
    }

    /** Reserves {@code bytes}; {@code false}, reserving nothing, when that would pass the bound. */
    public boolean tryReserve(long bytes) {
        long current;
        do {
            current = held.get();
            if (current + bytes > limit) {
                return false;
            }
        } while (!held.compareAndSet(current, current + bytes));
        return true;
    }

    /**
     * Reserves {@code bytes} whatever the bound: bytes a caller asked for and that wait to be sent are held all the
     * same, and leave the others less room.
     */
    public void reserve(long bytes) {
        if (bytes > 0) {
            held.addAndGet(bytes);
        }
    }

    /** Gives back {@code bytes} reserved before. */
    public void release(long bytes) {
        if (bytes > 0) {
            held.addAndGet(-bytes);
        }
    }

    /** The bytes held now, across all calls. */
    public long held() {
        return held.get();
    }
}
