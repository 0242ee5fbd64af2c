package dev.idempotency.kotlin

import dev.idempotency.Idempotent
import dev.idempotency.Strategy
import dev.idempotency.lock.LeaseLockManager
import dev.idempotency.token.TokenExecutor
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration
import java.util.UUID
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RestController

/**
 * `suspend fun` handlers under `@Idempotent`, all three strategies, on both web stacks and the in-memory store, over
 * real HTTP: the same contract as any other handler, with the protection spanning the coroutine.
 */
class SuspendingHandlerTests {

    data class Order(val id: String, val run: Int, val contextBound: Boolean)

    @RestController
    open class Orders(private val ledger: Ledger) {
        @PostMapping("/orders")
        @Idempotent
        open suspend fun create(): Order {
            ledger.attempts.incrementAndGet()
            val bound = ledger.work()
            return Order(UUID.randomUUID().toString(), ledger.runs.incrementAndGet(), bound)
        }

        @PostMapping("/declined")
        @Idempotent
        open suspend fun decline(): Order {
            ledger.attempts.incrementAndGet()
            ledger.work()
            throw IllegalStateException("declined")
        }

        @PostMapping("/checkout")
        @Idempotent(strategy = Strategy.TOKEN, operation = "checkout")
        open suspend fun checkout(): Int {
            ledger.work()
            return ledger.checkouts.incrementAndGet()
        }

        @PostMapping("/stock/{sku}")
        @Idempotent(strategy = Strategy.LOCK, key = "#sku")
        open suspend fun reserve(@PathVariable sku: String): Boolean {
            val bound = ledger.work()
            ledger.countIfLocked(sku)
            ledger.runs.incrementAndGet()
            return bound
        }
    }

    @EnableAutoConfiguration
    @Import(Orders::class)
    open class App {
        @Bean
        open fun ledger(locks: LeaseLockManager) = Ledger(locks)
    }

    private val http = HttpClient.newHttpClient()

    @ParameterizedTest
    @EnumSource(value = WebApplicationType::class, names = ["SERVLET", "REACTIVE"])
    fun requestIdRunsOnceAndReplaysAndAFailureReleases(stack: WebApplicationType): Unit = app(stack).use { app ->
        val ledger = app.getBean(Ledger::class.java)
        val key = UUID.randomUUID().toString()
        val first = post(app, "/orders", "Idempotency-Key" to key)
        val retry = post(app, "/orders", "Idempotency-Key" to key)
        assertThat(first.statusCode()).isEqualTo(200)
        assertThat(first.body()).`as`("context bound after resuming on another thread").contains("\"contextBound\":true")
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true")
        assertThat(retry.body()).isEqualTo(first.body())
        assertThat(ledger.runs).hasValue(1)

        val declinedKey = UUID.randomUUID().toString()
        repeat(2) { assertThat(post(app, "/declined", "Idempotency-Key" to declinedKey).statusCode()).isEqualTo(500) }
        assertThat(ledger.attempts).`as`("the failure released the key: the retry ran").hasValue(3)
    }

    @ParameterizedTest
    @EnumSource(value = WebApplicationType::class, names = ["SERVLET", "REACTIVE"])
    fun tokenIsConsumedOnce(stack: WebApplicationType): Unit = app(stack).use { app ->
        val ledger = app.getBean(Ledger::class.java)
        val token = app.getBean(TokenExecutor::class.java).issue("", "checkout", Duration.ofMinutes(1)).token()
        assertThat(post(app, "/checkout", "Idempotency-Token" to token).statusCode()).isEqualTo(200)
        assertThat(post(app, "/checkout", "Idempotency-Token" to token).statusCode()).isEqualTo(409)
        assertThat(ledger.checkouts).hasValue(1)
    }

    @ParameterizedTest
    @EnumSource(value = WebApplicationType::class, names = ["SERVLET", "REACTIVE"])
    fun lockIsHeldForTheWholeCoroutine(stack: WebApplicationType): Unit = app(stack).use { app ->
        val ledger = app.getBean(Ledger::class.java)
        ledger.close()
        val first = postAsync(app, "/stock/sku-1")
        runBlocking { withTimeout(30_000) { ledger.entered.await() } }
        assertThat(post(app, "/stock/sku-1").statusCode()).`as`("busy while the first runs").isEqualTo(409)
        ledger.open()
        val answered = first.get(30, TimeUnit.SECONDS)
        assertThat(answered.statusCode()).isEqualTo(200)
        assertThat(answered.body()).`as`("context bound").isEqualTo("true")
        assertThat(ledger.lockHeldWhileRunning).hasValue(1)
        assertThat(ledger.runs).hasValue(1)
        assertThat(post(app, "/stock/sku-1").statusCode()).`as`("released").isEqualTo(200)
    }

    /**
     * Spring MVC's async timeout ends the request, not the work: the caller gets the contract's 409
     * `request-in-progress` (retry with the same key), and the retry gets the stored answer.
     */
    @Test
    fun mvcAsyncTimeoutLeavesTheWorkToFinishAndTheRetryIsReplayed(): Unit =
        app(WebApplicationType.SERVLET, "spring.mvc.async.request-timeout=300ms").use { app ->
            val ledger = app.getBean(Ledger::class.java)
            ledger.close()
            val key = UUID.randomUUID().toString()
            val timedOut = postAsync(app, "/orders", "Idempotency-Key" to key)
            runBlocking { withTimeout(30_000) { ledger.entered.await() } }
            val answer = timedOut.get(30, TimeUnit.SECONDS)
            assertThat(answer.statusCode()).isEqualTo(409)
            assertThat(answer.body()).contains("request-in-progress")
            ledger.open()
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30)
            var retry = post(app, "/orders", "Idempotency-Key" to key)
            while (retry.statusCode() == 409 && System.nanoTime() < deadline) {
                Thread.sleep(5) // a poll: the condition is the answer itself
                retry = post(app, "/orders", "Idempotency-Key" to key)
            }
            assertThat(retry.statusCode()).isEqualTo(200)
            assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true")
            assertThat(ledger.runs).hasValue(1)
            assertThat(ledger.attempts).hasValue(1)
        }

    private fun app(stack: WebApplicationType, vararg properties: String): ConfigurableApplicationContext =
        SpringApplicationBuilder(App::class.java)
            .web(stack)
            .properties("idempotency.store=in-memory", "server.port=0", *properties)
            .run()

    private fun request(app: ConfigurableApplicationContext, path: String, headers: Array<out Pair<String, String>>) =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:${app.environment.getRequiredProperty("local.server.port")}$path"))
            .apply { headers.forEach { (name, value) -> header(name, value) } }
            .POST(HttpRequest.BodyPublishers.noBody())
            .build()

    private fun post(app: ConfigurableApplicationContext, path: String, vararg headers: Pair<String, String>) =
        http.send(request(app, path, headers), HttpResponse.BodyHandlers.ofString())

    private fun postAsync(app: ConfigurableApplicationContext, path: String, vararg headers: Pair<String, String>) =
        http.sendAsync(request(app, path, headers), HttpResponse.BodyHandlers.ofString())
}
