package dev.idempotency.edges;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.LockBusyException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.ResultNotStoredException;
import dev.idempotency.stacks.Stack;
import dev.idempotency.testsupport.Await;
import dev.idempotency.testsupport.TestHttp;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.reactivestreams.Subscription;
import org.springframework.context.ConfigurableApplicationContext;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Where and how fast a protected reactive call's values reach its caller, on WebFlux and for reactive bean methods:
 * on the caller's own kind of thread (never Lettuce's, never {@code parallel} for a caller that may block), no faster
 * than the caller reads, a cut-off stream stopped, and an answer that cannot be written or encoded settled as the work
 * that ran. Judged by the runs counted on the server, on a real port and real Redis.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReactiveDeliveryTests {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final int EXPORT_CHUNKS = 2048; // 128 MB
    /** Far above what the server, Netty and the sockets hold of a paused export, far below the whole of it. */
    private static final int PAUSED_BOUND = EXPORT_CHUNKS / 2;

    private ConfigurableApplicationContext app;
    private Work work;
    private ReactiveBeans beans;
    private TestHttp http;

    @BeforeAll
    void start() {
        app = EdgeApplication.start(Stack.WEBFLUX, "idempotency.lock.wait=2s", "idempotency.detached-renewal=2s");
        work = app.getBean(Work.class);
        beans = app.getBean(ReactiveBeans.class);
        http = new TestHttp(EdgeApplication.port(app));
    }

    @AfterAll
    void stop() {
        app.close();
    }

    /** A caller's chain that blocks, as it may on its own thread; records the thread it ran on. */
    private static <T> Function<T, T> blockingStep(List<String> threads) {
        return value -> {
            threads.add(Thread.currentThread().getName());
            return Mono.just(value).hide().block(); // hidden: a plain Mono.just never checks its thread
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"calling-thread", "bounded-elastic"})
    void aBeanMonosValueReachesItsCallerOnAThreadOfItsKindAfterSettlementAndOnReplay(String subscribedOn) {
        List<String> threads = new CopyOnWriteArrayList<>();
        Function<Mono<String>, String> call = mono -> {
            Mono<String> chain = mono.map(blockingStep(threads));
            return (subscribedOn.equals("calling-thread") ? chain : chain.subscribeOn(Schedulers.boundedElastic()))
                    .block(DEADLINE);
        };
        String sku = newId();
        String id = newId();
        assertThat(call.apply(beans.deduct(sku))).isEqualTo("deducted"); // after the lock's release
        assertThat(call.apply(beans.record(id))).isEqualTo("recorded " + id); // after the result was stored
        assertThat(call.apply(beans.record(id))).isEqualTo("recorded " + id); // the replay
        assertThat(work.executions(id)).isEqualTo(1);
        assertThat(threads)
                .hasSize(3)
                .allSatisfy(thread -> assertThat(thread)
                        .as("a caller that may block gets its values where it may block, never on Redis's I/O thread")
                        .doesNotStartWith("lettuce")
                        .doesNotStartWith("parallel"));
    }

    @Test
    void aBodyThatBlocksMayBlockWhereItsCallerMay() {
        String sku = newId();
        String value = beans.deductBlocking(sku)
                .subscribeOn(Schedulers.boundedElastic())
                .block(DEADLINE);
        assertThat(value).isEqualTo("deducted");
        assertThat(work.executions(sku)).isEqualTo(1);
    }

    /** The handler's chain runs where WebFlux put it (here {@code parallel}: the session store moves it there). */
    @Test
    void aHandlerGetsABeanMonosValueWhereItsChainRuns() {
        HttpResponse<String> answer = http.get("/edge/threads/" + newId());
        assertThat(answer.statusCode()).isEqualTo(200);
        String[] threads = answer.body().split(" -> ");
        assertThat(threads[1]).doesNotStartWith("lettuce");
        assertThat(kind(threads[1])).isEqualTo(kind(threads[0]));
    }

    @Test
    void aStoredAnswerAndItsReplayAreWrittenWhereTheExchangeRuns() {
        String id = newId();
        String key = newId();
        String first = newId();
        String replay = newId();
        assertThat(http.post("/edge/traced/" + id, "{}", "Idempotency-Key", key, "X-Trace", first)
                        .body())
                .isEqualTo("traced " + id);
        HttpResponse<String> replayed =
                http.post("/edge/traced/" + id, "{}", "Idempotency-Key", key, "X-Trace", replay);
        assertThat(replayed.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(DeliveryEdges.WRITERS.get(first))
                .isNotEmpty()
                .allSatisfy(thread -> assertThat(thread)
                        .as("written after the settlement, which Redis completes on its own I/O thread")
                        .doesNotStartWith("lettuce"));
        assertThat(DeliveryEdges.WRITERS.get(replay))
                .isNotEmpty()
                .allSatisfy(thread -> assertThat(thread).doesNotStartWith("lettuce"));
    }

    /** A thread's pool: its name without the trailing number. */
    private static String kind(String thread) {
        return thread.replaceAll("-\\d+$", "");
    }

    /**
     * A client that stops reading a 128 MB export for a while: the export is made no faster than it reads, whether the
     * handler is protected or returns a protected bean method's {@code Flux}. The pause is the scenario's own timing.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/edge/export/", "/edge/bean-export/"})
    void aSlowReaderHoldsAProtectedExportBack(String path) throws Exception {
        String sku = newId();
        try (Socket client = new Socket()) {
            client.setReceiveBufferSize(64 * 1024);
            client.connect(new InetSocketAddress("127.0.0.1", EdgeApplication.port(app)));
            send(client, path + sku + "?chunks=" + EXPORT_CHUNKS, "Connection: close\r\n");
            InputStream in = client.getInputStream();
            long read = in.readNBytes(DeliveryEdges.CHUNK).length;
            Thread.sleep(2000); // the client stops reading
            int producedWhilePaused = work.executions(sku + "#chunk");
            byte[] rest = new byte[1 << 20];
            for (int n; (n = in.read(rest)) >= 0; ) {
                read += n;
            }
            assertThat(producedWhilePaused)
                    .as("chunks produced while the client read one")
                    .isLessThan(PAUSED_BOUND);
            assertThat(read).isGreaterThan((long) EXPORT_CHUNKS * DeliveryEdges.CHUNK);
        }
        assertThat(work.executions(sku + "#chunk")).isEqualTo(EXPORT_CHUNKS);
        assertThat(work.executions(sku)).isEqualTo(1);
    }

    @Test
    void aBeanFluxProducesNoMoreThanItsCallerAsksFor() {
        String sku = newId();
        List<Integer> received = new CopyOnWriteArrayList<>();
        BaseSubscriber<Integer> caller = new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription subscription) {
                subscription.request(4);
            }

            @Override
            protected void hookOnNext(Integer value) {
                received.add(value);
            }
        };
        beans.count(sku, 100_000).subscribe(caller);
        Await.until(DEADLINE, "the caller got what it asked for", () -> received.size() == 4);
        assertThat(work.executions(sku + "#produced")).isLessThanOrEqualTo(8);
        caller.cancel();
        Await.until(DEADLINE, "the cancel stopped the source", () -> work.executions(sku + "#cancelled") == 1);
        Await.until(DEADLINE, "the lock was released", () -> tryDeduct(sku));
    }

    @Test
    void takeOnABeanFluxStopsItsSourceAndCompletesTheKey() {
        String id = newId();
        assertThat(beans.countRecorded(id, 100_000).take(3).collectList().block(DEADLINE))
                .containsExactly(0, 1, 2);
        Await.until(DEADLINE, "take(3) stopped the source", () -> work.executions(id + "#cancelled") == 1);
        Await.until(DEADLINE, "the key was completed", () -> {
            try {
                beans.countRecorded(id, 100_000).take(3).collectList().block(DEADLINE);
                return false;
            } catch (ResultNotStoredException expected) {
                return true;
            } catch (RequestInProgressException settling) {
                return false; // the cut-off stream's key is being completed
            }
        });
        assertThat(work.executions(id)).isEqualTo(1);
        String sku = newId();
        assertThat(beans.count(sku, 100_000).take(3).collectList().block(DEADLINE))
                .containsExactly(0, 1, 2);
        Await.until(DEADLINE, "the lock was released", () -> tryDeduct(sku));
        assertThat(work.executions(sku + "#cancelled")).isEqualTo(1);
    }

    @Test
    void aBeanFluxWhoseElementsCannotBeEncodedCompletesItsKey() {
        String id = newId();
        assertThat(beans.unencodable(id).collectList().block(DEADLINE)).hasSize(2);
        assertThatThrownBy(() -> beans.unencodable(id).collectList().block(DEADLINE))
                .isInstanceOf(ResultNotStoredException.class);
        assertThat(work.executions(id)).isEqualTo(1);
    }

    /** The work returned, then its answer could not be serialized: writing is not the work, the key completes. */
    @ParameterizedTest
    @ValueSource(strings = {"/edge/unwritable/", "/edge/unwritable-many/"})
    void anAnswerThatCannotBeWrittenCompletesItsKey(String path) {
        String id = newId();
        String key = newId();
        double notStored = counter("idempotency.results.not.stored");
        HttpResponse<String> first = http.post(path + id, "{}", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(500);
        HttpResponse<String> duplicate = http.post(path + id, "{}", "Idempotency-Key", key);
        assertThat(duplicate.statusCode()).as(duplicate.body()).isEqualTo(409);
        assertThat(duplicate.body()).contains("result-not-stored");
        assertThat(work.executions(id)).isEqualTo(1);
        // At least: work detached by the other cases may complete its key without a result meanwhile.
        assertThat(counter("idempotency.results.not.stored")).isGreaterThanOrEqualTo(notStored + 1);
    }

    @Test
    void aSubmitWhoseAnswerCannotBeWrittenKeepsItsTokenUsed() {
        String id = newId();
        String path = "/edge/unwritable-token/" + id;
        String token = http.token("POST /edge/unwritable-token/{id}");
        assertThat(http.post(path, "", "Idempotency-Token", token).statusCode()).isEqualTo(500);
        HttpResponse<String> again = http.post(path, "", "Idempotency-Token", token);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(409);
        assertThat(again.body()).contains("token-used");
        assertThat(work.executions(id)).isEqualTo(1);
    }

    @Test
    void aLockWhoseAnswerCannotBeWrittenIsReleased() {
        String id = newId();
        assertThat(http.post("/edge/unwritable-lock/" + id, "{}").statusCode()).isEqualTo(500);
        assertThat(http.post("/edge/unwritable-lock/" + id, "{}").statusCode()).isEqualTo(500);
        assertThat(work.executions(id)).isEqualTo(2);
    }

    /** Its caller cancels the future: the work runs on, its lock renewed for {@code detached-renewal} at most. */
    @Test
    void aCancelledBeanCompletionStageIsDetachedUnderTheBound() {
        String sku = newId();
        CompletableFuture<String> first = beans.deductLater(sku);
        assertThat(work.isParked(sku)).isTrue();
        assertThat(tryDeduct(sku)).as("held while its caller waits").isFalse();
        first.cancel(true);
        Await.until(DEADLINE, "the lock ran out past detached-renewal", () -> tryDeduct(sku));
        work.finish(sku, "deducted");
        assertThat(work.executions(sku)).isEqualTo(1);
    }

    @Test
    void aNestedReactiveLockOnItsOwnResourceReentersIt() {
        String sku = newId();
        assertThat(beans.restock(sku).block(DEADLINE)).isEqualTo("restocked, reserved");
        assertThat(work.executions(sku)).isEqualTo(1);
        assertThat(work.executions(sku + "#reserved")).isEqualTo(1);
        assertThat(tryDeduct(sku)).as("released when the outer call ended").isTrue();
    }

    /**
     * Every WebFlux way a call can end, many times over: the work fails, its answer cannot be written, it is too large
     * to keep, it is replayed, its client leaves mid-answer or cuts a stream off. What was held is given back each time.
     */
    @Test
    void theHeldBytesGaugeComesBackToZeroAfterEveryWayACallEnds() throws Exception {
        Supplier<Double> held = () -> app.getBean(MeterRegistry.class)
                .get("idempotency.held.bytes")
                .gauge()
                .value();
        String halfway = newId();
        CompletableFuture<HttpResponse<String>> parked = CompletableFuture.supplyAsync(
                () -> http.post("/edge/halves/" + halfway, "{}", "Idempotency-Key", newId()));
        Await.until(DEADLINE, "half an answer is held", () -> held.get() > 0);
        work.finish(halfway, "done");
        assertThat(parked.get().statusCode()).isEqualTo(200);
        Await.until(DEADLINE, "the held half was given back", () -> held.get() == 0, () -> "held: " + held.get());
        int port = EdgeApplication.port(app);
        for (int i = 0; i < 10; i++) {
            String id = newId();
            String key = newId();
            http.post("/edge/failing/" + id, "{}", "Idempotency-Key", key);
            http.post("/edge/unwritable/" + id, "{}", "Idempotency-Key", key + "u");
            http.post("/edge/unwritable-many/" + id, "{}", "Idempotency-Key", key + "m");
            http.post("/edge/large/" + id, "{}", "Idempotency-Key", key + "l");
            http.post("/edge/items/" + id, "{}", "Idempotency-Key", key + "i");
            http.post("/edge/items/" + id, "{}", "Idempotency-Key", key + "i");
            try (Socket client = new Socket("127.0.0.1", port)) {
                send(client, "/edge/export/" + id + "?chunks=64", "");
                client.getInputStream().readNBytes(1024);
                client.setSoLinger(true, 0); // the client leaves mid-answer
            }
            String feed = newId();
            try (Disconnecting cut = Disconnecting.post(port, "/edge/feed/" + feed, null)) {
                Await.until(DEADLINE, "the stream started", () -> work.executions(feed) == 1);
            }
            String leaving = newId();
            try (Disconnecting gone = Disconnecting.post(port, "/edge/halves/" + leaving, newId())) {
                Await.until(DEADLINE, "half an answer is held", () -> work.isParked(leaving));
            }
            work.finish(leaving, "done");
        }
        Await.until(
                DEADLINE,
                "everything held was given back",
                () -> held.get() == 0,
                () -> "held: " + held.get() + " bytes");
    }

    private boolean tryDeduct(String sku) {
        try {
            beans.tryDeduct(sku);
            return true;
        } catch (LockBusyException busy) {
            return false;
        }
    }

    private double counter(String name) {
        return app.getBean(MeterRegistry.class).get(name).counter().count();
    }

    private static void send(Socket client, String path, String headers) throws IOException {
        OutputStream out = client.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers
                        + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }
}
