package dev.idempotency.kotlin

import dev.idempotency.IdempotencyContext
import dev.idempotency.LockBusyException
import dev.idempotency.lock.LeaseLockManager
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

/**
 * What the applications under test did, counted outside their proxies: runs per operation, whether the body saw its
 * `IdempotencyContext` after resuming on another thread, whether its lock was held meanwhile; and a gate that holds
 * the body until the test opens it.
 */
class Ledger(private val locks: LeaseLockManager) {
    val runs = AtomicInteger()
    val attempts = AtomicInteger()
    val checkouts = AtomicInteger()
    val lockHeldWhileRunning = AtomicInteger()

    @Volatile var gate = CompletableDeferred<Unit>().apply { complete(Unit) }
    @Volatile var entered = CompletableDeferred<Unit>()

    /** Closes the gate: the next body waits in it until [open]. */
    fun close() {
        gate = CompletableDeferred()
        entered = CompletableDeferred()
    }

    fun open() {
        gate.complete(Unit)
    }

    /** Waits at the gate, then hops to another thread and tells whether the call's context came along. */
    suspend fun work(): Boolean {
        entered.complete(Unit)
        gate.await()
        return withContext(Dispatchers.IO) { IdempotencyContext.current().isPresent }
    }

    /** Whether `resource` is locked now, asked from a thread of no protected call (so it cannot re-enter). */
    fun countIfLocked(resource: String) {
        val held = CompletableFuture.supplyAsync {
            try {
                locks.acquire(resource, Duration.ofSeconds(30), Duration.ZERO).use { false }
            } catch (busy: LockBusyException) {
                true
            }
        }.get(30, TimeUnit.SECONDS)
        if (held) {
            lockHeldWhileRunning.incrementAndGet()
        }
    }
}
