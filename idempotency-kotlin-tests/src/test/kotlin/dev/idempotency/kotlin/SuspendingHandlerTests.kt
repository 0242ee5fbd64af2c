package dev.idempotency.kotlin

import dev.idempotency.IdempotencyContext
import dev.idempotency.Idempotent
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.util.UUID
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.delay
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.annotation.Import
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RestController

/**
 * A `suspend fun` handler under `@Idempotent` (REQUEST_ID, key from the header), on both web stacks and the in-memory
 * store, called twice with one key: what happens today. Handlers skip the startup check that refuses results
 * declared as `Object` (their replay is the HTTP response), so they start.
 */
class SuspendingHandlerTests {

    data class Order(val id: String, val run: Int, val contextBound: Boolean)

    @RestController
    open class Orders {
        private val runs = AtomicInteger()

        open fun runs(): Int = runs.get()

        @PostMapping("/orders")
        @Idempotent
        open suspend fun create(): Order {
            delay(10)
            return Order(UUID.randomUUID().toString(), runs.incrementAndGet(), IdempotencyContext.current().isPresent)
        }
    }

    @EnableAutoConfiguration
    @Import(Orders::class)
    open class App

    @ParameterizedTest
    @EnumSource(value = WebApplicationType::class, names = ["SERVLET", "REACTIVE"])
    fun todayASuspendingHandlerCalledTwiceWithOneKey(stack: WebApplicationType) {
        SpringApplicationBuilder(App::class.java)
            .web(stack)
            .properties("idempotency.store=in-memory", "server.port=0")
            .run()
            .use { context ->
                val port = context.environment.getRequiredProperty("local.server.port")
                val orders = context.getBean(Orders::class.java)
                val key = UUID.randomUUID().toString()
                val first = post(port, key)
                val retry = post(port, key)
                println(
                    "[kotlin] $stack suspend handler: first ${first.statusCode()} ${first.body()}," +
                        " retry ${retry.statusCode()} replayed=${retry.headers().firstValue("Idempotent-Replayed")}" +
                        " ${retry.body()}, runs=${orders.runs()}"
                )
                // The exchange holds the claim until the response is complete, so a sequential retry is replayed...
                assertThat(first.statusCode()).isEqualTo(200)
                assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true")
                assertThat(retry.body()).isEqualTo(first.body())
                assertThat(orders.runs()).isEqualTo(1)
                // ...but the body runs after the interceptor's proceed() returned the unsubscribed Mono: outside the
                // permit's callWithin, so it does not see its IdempotencyContext.
                assertThat(first.body()).contains("\"contextBound\":false")
            }
    }

    private fun post(port: String, key: String): HttpResponse<String> = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:$port/orders"))
            .header("Idempotency-Key", key)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString(),
    )
}
