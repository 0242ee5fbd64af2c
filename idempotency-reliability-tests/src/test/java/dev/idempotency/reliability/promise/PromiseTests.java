package dev.idempotency.reliability.promise;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The promise checker: randomized histories on every entry path, with each strategy that applies to it, judged by
 * {@link PromiseChecker}. Each try draws a seed; its history has several clients on a few keys, each call ending its
 * own way (waiting, disconnecting, timing out, another payload; Spring MVC's async timeout on futures), work that
 * succeeds, returns 4xx or 5xx, or throws, and maybe one fault: Redis stopped (SIGSTOP), killed and restarted, or its
 * replies lost, a replica frozen under {@code wait-for-replicas}, or one request thread only. A failing history is
 * shrunk to the parts that matter and printed with its seed; {@code -Dpromise.seed=N} replays it. jqwik's own
 * shrinking is off: a smaller seed is another history, not a smaller one, and jqwik abandons a shrink that outlasts its
 * time bound without stopping it, which would then play histories beside the next property's. How many tries:
 * {@code jqwik.tries.default} (junit-platform.properties; {@code scripts/soak.sh --long} raises it).
 */
class PromiseTests {

    private static final Duration SHRINK_BUDGET = Duration.ofSeconds(60);
    private static final Long FIXED_SEED = Long.getLong("promise.seed");

    private static final Lazy<Backend> DURABLE = new Lazy<>(Backend::durable);
    private static final Lazy<Backend> REPLICATED = new Lazy<>(Backend::replicated);
    private static final Lazy<ConfigurableApplicationContext> MVC =
            new Lazy<>(() -> PromiseApp.start(WebApplicationType.SERVLET, DURABLE.get()));
    private static final Lazy<ConfigurableApplicationContext> MVC_ONE_THREAD = new Lazy<>(() -> PromiseApp.start(
            WebApplicationType.SERVLET,
            DURABLE.get(),
            "server.tomcat.threads.max=1",
            "server.tomcat.threads.min-spare=1"));
    private static final Lazy<ConfigurableApplicationContext> WEBFLUX =
            new Lazy<>(() -> PromiseApp.start(WebApplicationType.REACTIVE, DURABLE.get()));
    private static final Lazy<ConfigurableApplicationContext> MVC_REPLICATED = new Lazy<>(() -> PromiseApp.start(
            WebApplicationType.SERVLET,
            REPLICATED.get(),
            "idempotency.redis.wait-for-replicas=1",
            "idempotency.redis.wait-for-replicas-timeout=300ms"));
    private static final Lazy<EmbeddedKafkaKraftBroker> BROKER = new Lazy<>(PromiseTests::broker);
    private static final Lazy<ConfigurableApplicationContext> KAFKA = new Lazy<>(() -> PromiseApp.start(
            WebApplicationType.NONE,
            DURABLE.get(),
            "promise.kafka=true",
            "spring.kafka.bootstrap-servers=" + BROKER.get().getBrokersAsString(),
            "spring.kafka.consumer.auto-offset-reset=earliest",
            "idempotency.kafka.in-progress-retry-interval=100ms"));
    private static final Lazy<KafkaCaller> KAFKA_REQUEST_ID = new Lazy<>(() -> kafkaCaller(Guard.REQUEST_ID));
    private static final Lazy<KafkaCaller> KAFKA_LOCK = new Lazy<>(() -> kafkaCaller(Guard.LOCK));

    @AfterContainer
    static void stop() {
        KAFKA_REQUEST_ID.close(KafkaCaller::close);
        KAFKA_LOCK.close(KafkaCaller::close);
        for (Lazy<ConfigurableApplicationContext> app : List.of(MVC, MVC_ONE_THREAD, WEBFLUX, MVC_REPLICATED, KAFKA)) {
            app.close(ConfigurableApplicationContext::close);
        }
        BROKER.close(EmbeddedKafkaKraftBroker::destroy);
        DURABLE.close(Backend::close);
        REPLICATED.close(Backend::close);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void mvcSyncRequestId(@ForAll long seed) throws Exception {
        promiseHolds("mvc-sync", Guard.REQUEST_ID, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void mvcSyncToken(@ForAll long seed) throws Exception {
        promiseHolds("mvc-sync", Guard.TOKEN, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void mvcSyncLock(@ForAll long seed) throws Exception {
        promiseHolds("mvc-sync", Guard.LOCK, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void mvcFutureRequestId(@ForAll long seed) throws Exception {
        promiseHolds("mvc-future", Guard.REQUEST_ID, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void mvcFutureToken(@ForAll long seed) throws Exception {
        promiseHolds("mvc-future", Guard.TOKEN, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void mvcFutureLock(@ForAll long seed) throws Exception {
        promiseHolds("mvc-future", Guard.LOCK, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void mvcDeferredRequestId(@ForAll long seed) throws Exception {
        promiseHolds("mvc-deferred", Guard.REQUEST_ID, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void mvcDeferredLock(@ForAll long seed) throws Exception {
        promiseHolds("mvc-deferred", Guard.LOCK, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void beanMethodRequestId(@ForAll long seed) throws Exception {
        promiseHolds("bean", Guard.REQUEST_ID, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void beanMethodLock(@ForAll long seed) throws Exception {
        promiseHolds("bean", Guard.LOCK, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void webfluxMonoRequestId(@ForAll long seed) throws Exception {
        promiseHolds("webflux-mono", Guard.REQUEST_ID, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void webfluxMonoToken(@ForAll long seed) throws Exception {
        promiseHolds("webflux-mono", Guard.TOKEN, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void webfluxMonoLock(@ForAll long seed) throws Exception {
        promiseHolds("webflux-mono", Guard.LOCK, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void webfluxPlainRequestId(@ForAll long seed) throws Exception {
        promiseHolds("webflux-plain", Guard.REQUEST_ID, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void webfluxPlainLock(@ForAll long seed) throws Exception {
        promiseHolds("webflux-plain", Guard.LOCK, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void kafkaRecordRequestId(@ForAll long seed) throws Exception {
        promiseHolds("kafka", Guard.REQUEST_ID, seed);
    }

    @Property(shrinking = ShrinkingMode.OFF)
    void kafkaRecordLock(@ForAll long seed) throws Exception {
        promiseHolds("kafka", Guard.LOCK, seed);
    }

    /** Spring MVC on a master whose replica may freeze: an unconfirmed claim is answered 503 and runs nothing. */
    @Property(shrinking = ShrinkingMode.OFF)
    void mvcSyncRequestIdWaitingForReplicas(@ForAll long seed) throws Exception {
        promiseHolds("mvc-sync-replicated", Guard.REQUEST_ID, seed);
    }

    private void promiseHolds(String path, Guard guard, long drawn) throws Exception {
        long seed = FIXED_SEED != null ? FIXED_SEED : drawn;
        boolean replicated = path.endsWith("-replicated");
        boolean servlet = path.startsWith("mvc") || path.equals("bean");
        History history =
                History.random(seed, (replicated ? REPLICATED : DURABLE).get().faults(), servlet);
        List<String> violations = play(history, path, guard);
        if (violations.isEmpty()) {
            return;
        }
        History shrunk = shrink(history, path, guard);
        List<String> shrunkViolations = play(shrunk, path, guard);
        assertThat(violations)
                .as(
                        "%s %s: the promise broke.%n  history: %s%n  shrunk:  %s%n  shrunk violations: %s%n"
                                + "  replay: -Dpromise.seed=%d",
                        path,
                        guard,
                        history,
                        shrunk,
                        shrunkViolations.isEmpty() ? "(passed when shrunk: flaky)" : shrunkViolations,
                        seed)
                .isEmpty();
    }

    /** Removes the fault, the one-thread pool and calls, one at a time, as long as the history still fails. */
    private History shrink(History failing, String path, Guard guard) throws Exception {
        long deadline = System.nanoTime() + SHRINK_BUDGET.toNanos();
        History current = failing;
        boolean smaller = true;
        while (smaller && System.nanoTime() < deadline) {
            smaller = false;
            List<Integer> parts = new ArrayList<>(List.of(-1, -2));
            for (int i = current.calls().size() - 1; i >= 0; i--) {
                parts.add(i);
            }
            for (int part : parts) {
                if ((part == -1 && current.fault().span() == 0) || (part == -2 && !current.oneThread())) {
                    continue;
                }
                History candidate = current.without(part);
                if (!candidate.calls().isEmpty()
                        && !play(candidate, path, guard).isEmpty()) {
                    current = candidate;
                    smaller = true;
                    break;
                }
            }
        }
        return current;
    }

    private List<String> play(History history, String path, Guard guard) throws Exception {
        boolean replicated = path.endsWith("-replicated");
        Backend backend = (replicated ? REPLICATED : DURABLE).get();
        ConfigurableApplicationContext app = app(path, history);
        Caller caller = path.equals("kafka")
                ? (guard == Guard.LOCK ? KAFKA_LOCK : KAFKA_REQUEST_ID).get()
                : new HttpCaller(PromiseApp.port(app), path.replace("-replicated", ""), guard);
        Ledger ledger = app.getBean(Ledger.class);
        HistoryRunner.Played played = new HistoryRunner(backend, ledger).play(history, caller);
        if (Boolean.getBoolean("promise.verbose")) {
            System.out.println("[promise] " + path + " " + guard + " " + history);
            played.answers().forEach(answer -> System.out.println("[promise]   " + answer));
        }
        List<String> violations = PromiseChecker.check(played, ledger.ended(), ledger.running(), guard);
        backend.clearLeftovers(); // reported above; a history that follows must not inherit them
        return violations;
    }

    private static ConfigurableApplicationContext app(String path, History history) {
        if (path.endsWith("-replicated")) {
            return MVC_REPLICATED.get();
        }
        if (path.startsWith("webflux")) {
            return WEBFLUX.get();
        }
        if (path.equals("kafka")) {
            return KAFKA.get();
        }
        return history.oneThread() ? MVC_ONE_THREAD.get() : MVC.get();
    }

    private static EmbeddedKafkaKraftBroker broker() {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(
                1, KafkaPaths.PARTITIONS, KafkaPaths.REQUEST_ID, KafkaPaths.LOCK, KafkaPaths.REPLIES);
        broker.afterPropertiesSet();
        return broker;
    }

    private static KafkaCaller kafkaCaller(Guard guard) {
        return new KafkaCaller(
                BROKER.get().getBrokersAsString(), guard, KAFKA.get().getBean(KafkaTemplate.class));
    }

    /** A part of the bench started on first use, so that replaying one property starts only what it needs. */
    private static final class Lazy<T> {

        private final Supplier<T> start;
        private T value;

        Lazy(Supplier<T> start) {
            this.start = start;
        }

        synchronized T get() {
            if (value == null) {
                value = start.get();
            }
            return value;
        }

        synchronized void close(java.util.function.Consumer<T> stop) {
            if (value != null) {
                stop.accept(value);
                value = null;
            }
        }
    }
}
