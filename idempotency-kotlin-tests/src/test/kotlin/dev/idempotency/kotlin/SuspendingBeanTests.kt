package dev.idempotency.kotlin

import dev.idempotency.IdempotencyContext
import dev.idempotency.Idempotent
import dev.idempotency.LockBusyException
import dev.idempotency.Strategy
import dev.idempotency.lock.LeaseLockManager
import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import

/**
 * `suspend fun` bean methods under `@Idempotent`, on the in-memory store: what the starter does with them today, before
 * suspending functions are wired into its execution core. These tests pin today's behaviour so that the wiring can
 * turn them around. With kotlinx-coroutines-reactor on the class path, Spring AOP invokes a suspending function as a `Mono`
 * (`AopUtils.invokeJoinpointUsingReflection` through `CoroutinesUtils.invokeSuspendingFunction`) and awaits what the
 * interceptors return (`CoroutinesUtils.adaptReturnValue`, `awaitSingleOrNull`). The starter sees a method declared
 * to return `Object` whose `proceed()` returns a `Mono` nobody has subscribed yet.
 */
class SuspendingBeanTests {

    data class Receipt(val id: String, val run: Int)

    /** Open, as the kotlin-spring compiler plugin would make it: Spring proxies it by subclassing. */
    open class Payments {
        @Idempotent(key = "#id")
        open suspend fun charge(id: String): Receipt {
            delay(10)
            return Receipt(id, 1)
        }
    }

    /** A LOCK around a suspending body that checks, while it runs, whether its lock is held. */
    open class Stock(private val locks: LeaseLockManager) {
        private val runs = AtomicInteger()
        private val contextSeen = AtomicInteger()
        private val lockFreeWhileRunning = AtomicInteger()

        /** Read through open methods: the test holds the proxy, whose own fields are never set. */
        open fun contextSeen(): Int = contextSeen.get()

        open fun lockFreeWhileRunning(): Int = lockFreeWhileRunning.get()

        @Idempotent(strategy = Strategy.LOCK, key = "#sku")
        open suspend fun reserve(sku: String): Int {
            delay(10)
            if (IdempotencyContext.current().isPresent) {
                contextSeen.incrementAndGet()
            }
            // Another caller of the same resource: it must find the lock busy while this call runs.
            try {
                locks.acquire(sku, Duration.ofSeconds(30), Duration.ZERO).use { lockFreeWhileRunning.incrementAndGet() }
            } catch (busy: LockBusyException) {
                // held, as it should be
            }
            return runs.incrementAndGet()
        }
    }

    @EnableAutoConfiguration
    @Import(Payments::class)
    open class RequestIdApp

    @EnableAutoConfiguration
    open class LockApp {
        @Bean
        open fun stock(locks: LeaseLockManager) = Stock(locks)
    }

    private fun start(app: Class<*>) = SpringApplicationBuilder(app)
        .web(WebApplicationType.NONE)
        .properties("idempotency.store=in-memory")

    @Test
    fun todayRequestIdOnASuspendingFunctionFailsStartupAsAResultDeclaredAsObject() {
        assertThatThrownBy { start(RequestIdApp::class.java).run().close() }
            .hasStackTraceContaining("Payments.charge")
            .hasStackTraceContaining("declared as Object cannot be decoded")
    }

    @Test
    fun todayALockIsReleasedBeforeTheSuspendingBodyRuns() {
        start(LockApp::class.java).run().use { context ->
            val stock = context.getBean(Stock::class.java)
            val run = runBlocking { stock.reserve("sku-1") }
            assertThat(run).isEqualTo(1)
            println(
                "[kotlin] LOCK suspend fun: context seen=${stock.contextSeen()}, lock free while running=" +
                    "${stock.lockFreeWhileRunning()}"
            )
            // The interceptor settled the call when proceed() returned the unsubscribed Mono: the body ran later,
            // after the release, without its IdempotencyContext and with the resource free for anyone.
            assertThat(stock.contextSeen()).isZero()
            assertThat(stock.lockFreeWhileRunning()).isEqualTo(1)
        }
    }
}
