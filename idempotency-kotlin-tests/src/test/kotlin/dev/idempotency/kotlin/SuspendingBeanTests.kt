package dev.idempotency.kotlin

import dev.idempotency.IdempotencyContext
import dev.idempotency.Idempotent
import dev.idempotency.PayloadMismatchException
import dev.idempotency.RequestInProgressException
import dev.idempotency.Strategy
import dev.idempotency.TokenAlreadyUsedException
import dev.idempotency.lock.LeaseLockManager
import dev.idempotency.token.TokenExecutor
import java.time.Duration
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Bean

/**
 * `suspend fun` bean methods under `@Idempotent`, all three strategies, on the in-memory store: the protection spans
 * the whole coroutine, whatever threads it resumes on, and the body sees its `IdempotencyContext` there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SuspendingBeanTests {

    data class Receipt(val id: String, val amount: Int, val run: Int, val contextBound: Boolean)

    /** Open, as the kotlin-spring compiler plugin would make it: Spring proxies it by subclassing. */
    open class Payments(private val ledger: Ledger) {
        @Idempotent(key = "#id")
        open suspend fun charge(id: String, amount: Int): Receipt {
            ledger.attempts.incrementAndGet()
            val bound = ledger.work()
            require(amount > 0) { "declined" }
            return Receipt(id, amount, ledger.runs.incrementAndGet(), bound)
        }

        @Idempotent(strategy = Strategy.TOKEN, key = "#token", operation = "checkout")
        open suspend fun checkout(token: String): Int {
            ledger.work()
            return ledger.checkouts.incrementAndGet()
        }

        @Idempotent(strategy = Strategy.LOCK, key = "#sku")
        open suspend fun reserve(sku: String): Boolean {
            val bound = ledger.work()
            ledger.countIfLocked(sku)
            return bound
        }
    }

    /** Locks a resource, then calls a method that locks the same one: the nested call re-enters. */
    open class Warehouse(private val payments: Payments) {
        @Idempotent(strategy = Strategy.LOCK, key = "#sku")
        open suspend fun restock(sku: String): Boolean = payments.reserve(sku)
    }

    @EnableAutoConfiguration
    open class App {
        @Bean
        open fun ledger(locks: LeaseLockManager) = Ledger(locks)

        @Bean
        open fun payments(ledger: Ledger) = Payments(ledger)

        @Bean
        open fun warehouse(payments: Payments) = Warehouse(payments)
    }

    /** A Flow runs after the method returned: refused at startup. */
    open class Exports {
        @Idempotent(key = "#day")
        open fun export(day: String): Flow<Int> = flowOf(1, 2, 3)
    }

    @EnableAutoConfiguration
    open class FlowApp {
        @Bean
        open fun exports() = Exports()
    }

    private val context: ConfigurableApplicationContext = start(App::class.java)
    private val payments = context.getBean(Payments::class.java)
    private val ledger = context.getBean(Ledger::class.java)

    @AfterAll
    fun close(): Unit = context.close()

    @BeforeEach
    fun reset() {
        ledger.open()
        ledger.runs.set(0)
        ledger.attempts.set(0)
        ledger.checkouts.set(0)
        ledger.lockHeldWhileRunning.set(0)
    }

    @Test
    fun requestIdRunsOnceAndReplaysTheStoredValue(): Unit = runBlocking {
        val first = payments.charge("p-1", 10)
        val retry = payments.charge("p-1", 10)
        assertThat(retry).isEqualTo(first)
        assertThat(ledger.runs).hasValue(1)
        assertThat(first.contextBound).`as`("context bound on the thread the body resumed on").isTrue()
        assertThat(IdempotencyContext.current()).`as`("the caller's code after the call").isEmpty()
    }

    @Test
    fun requestIdRefusesAnotherPayloadAndReleasesOnFailure(): Unit = runBlocking {
        payments.charge("p-2", 10)
        assertThatThrownBy { runBlocking { payments.charge("p-2", 11) } }.isInstanceOf(PayloadMismatchException::class.java)
        repeat(2) {
            assertThatThrownBy { runBlocking { payments.charge("p-3", -1) } }.hasMessage("declined")
        }
        assertThat(ledger.attempts).`as`("a failure released the key: the retry ran").hasValue(3)
    }

    @Test
    fun aCallerThatLeavesMidWorkLeavesItToFinishAndTheRetryIsReplayed(): Unit = runBlocking {
        ledger.close()
        val leaving = async(Dispatchers.Default) { payments.charge("p-4", 10) }
        withTimeout(30_000) { ledger.entered.await() }
        assertThatThrownBy { runBlocking { payments.charge("p-4", 10) } }
            .isInstanceOf(RequestInProgressException::class.java)
        leaving.cancelAndJoin()
        assertThat(leaving.isCancelled).isTrue()
        ledger.open()
        val retry = retryWhileInProgress { payments.charge("p-4", 10) }
        assertThat(retry.run).isEqualTo(1)
        assertThat(ledger.runs).hasValue(1)
    }

    @Test
    fun tokenIsConsumedOnce(): Unit = runBlocking {
        val token = context.getBean(TokenExecutor::class.java).issue("", "checkout", Duration.ofMinutes(1)).token()
        assertThat(payments.checkout(token)).isEqualTo(1)
        assertThatThrownBy { runBlocking { payments.checkout(token) } }.isInstanceOf(TokenAlreadyUsedException::class.java)
        assertThat(ledger.checkouts).hasValue(1)
    }

    @Test
    fun lockIsHeldWhileTheBodyRunsOnOtherThreadsAndReleasedAfter(): Unit = runBlocking {
        assertThat(payments.reserve("sku-1")).`as`("context bound").isTrue()
        assertThat(ledger.lockHeldWhileRunning).hasValue(1)
        ledger.countIfLocked("sku-1")
        assertThat(ledger.lockHeldWhileRunning).`as`("released after the call").hasValue(1)
    }

    @Test
    fun aNestedLockOnTheResourceItsCallHoldsReEnters(): Unit = runBlocking {
        val warehouse = context.getBean(Warehouse::class.java)
        assertThat(warehouse.restock("sku-2")).`as`("inner context bound").isTrue()
        assertThat(ledger.lockHeldWhileRunning).hasValue(1)
        ledger.countIfLocked("sku-2")
        assertThat(ledger.lockHeldWhileRunning).`as`("released after the outer call").hasValue(1)
    }

    @Test
    fun aFlowFailsStartupNamingIt() {
        assertThatThrownBy { start(FlowApp::class.java).close() }
            .hasStackTraceContaining("Exports.export")
            .hasStackTraceContaining("kotlinx.coroutines.flow.Flow runs after the method returned")
    }

    private fun start(app: Class<*>): ConfigurableApplicationContext =
        SpringApplicationBuilder(app).web(WebApplicationType.NONE).properties("idempotency.store=in-memory").run()

    /** Retries while the first call's work is being settled, for at most 30 s. */
    private fun <T> retryWhileInProgress(call: suspend () -> T): T {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
        while (true) {
            try {
                return runBlocking { call() }
            } catch (inProgress: RequestInProgressException) {
                if (System.nanoTime() > deadline) throw inProgress
                Thread.sleep(5) // a poll: the condition is the answer itself
            }
        }
    }
}
