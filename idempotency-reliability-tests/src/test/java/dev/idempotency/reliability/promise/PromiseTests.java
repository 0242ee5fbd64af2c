package dev.idempotency.reliability.promise;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * The promise checker: histories drawn by jqwik ({@link Histories}) on every entry path, with each strategy that
 * applies to it, played on a real application against a real Redis ({@link Bench}) and judged by the oracle and
 * {@link PromiseChecker}. jqwik shrinks a failing history field by field (calls, timings, endings, fault, work),
 * playing each candidate; the smallest failing one is written to {@code target/shrunk-histories/} (keep it with
 * {@code scripts/keep-histories.sh}; {@code KeptHistoryTests} replays the kept ones in every build). Shrinking plays
 * real histories, so it stops after {@link #SHRINK_BUDGET}: later candidates are not played (they count as passing,
 * and jqwik reports the smallest failing history found so far); a time bound of jqwik's own would abandon the shrink
 * on another thread, still playing beside the next property. How many tries: {@code jqwik.tries.default}
 * (junit-platform.properties: 1 in a build; {@code scripts/soak.sh --long} raises it, and {@link PromiseStatistics}
 * then checks its coverage thresholds).
 */
class PromiseTests {

    /**
     * How long a failed property shrinks: 90 s, or {@code -Dpromise.shrink-seconds} ({@code scripts/kill-rate.sh} sets
     * 0, as it only asks whether a property fails, not for the smallest history that fails it).
     */
    private static final Duration SHRINK_BUDGET = Duration.ofSeconds(Long.getLong("promise.shrink-seconds", 90));

    private static final Bench BENCH = new Bench();

    /** When the current property first failed ({@link System#nanoTime()}), 0 while it has not. */
    private static long firstFailure;

    @BeforeProperty
    void newProperty() {
        firstFailure = 0;
    }

    @AfterContainer
    static void stop() {
        BENCH.close();
    }

    @Provide
    Arbitrary<History> servlet() {
        return Histories.histories(Histories.DURABLE_FAULTS, true);
    }

    @Provide
    Arbitrary<History> durable() {
        return Histories.histories(Histories.DURABLE_FAULTS, false);
    }

    @Provide
    Arbitrary<History> replicated() {
        return Histories.histories(Histories.REPLICA_FAULTS, false);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncRequestId(@ForAll("servlet") History history) throws Exception {
        promiseHolds("mvc-sync", Guard.REQUEST_ID, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncToken(@ForAll("servlet") History history) throws Exception {
        promiseHolds("mvc-sync", Guard.TOKEN, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncLock(@ForAll("servlet") History history) throws Exception {
        promiseHolds("mvc-sync", Guard.LOCK, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcFutureRequestId(@ForAll("servlet") History history) throws Exception {
        promiseHolds("mvc-future", Guard.REQUEST_ID, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcFutureToken(@ForAll("servlet") History history) throws Exception {
        promiseHolds("mvc-future", Guard.TOKEN, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcFutureLock(@ForAll("servlet") History history) throws Exception {
        promiseHolds("mvc-future", Guard.LOCK, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcDeferredRequestId(@ForAll("servlet") History history) throws Exception {
        promiseHolds("mvc-deferred", Guard.REQUEST_ID, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcDeferredLock(@ForAll("servlet") History history) throws Exception {
        promiseHolds("mvc-deferred", Guard.LOCK, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void beanMethodRequestId(@ForAll("servlet") History history) throws Exception {
        promiseHolds("bean", Guard.REQUEST_ID, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void beanMethodLock(@ForAll("servlet") History history) throws Exception {
        promiseHolds("bean", Guard.LOCK, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void webfluxMonoRequestId(@ForAll("durable") History history) throws Exception {
        promiseHolds("webflux-mono", Guard.REQUEST_ID, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void webfluxMonoToken(@ForAll("durable") History history) throws Exception {
        promiseHolds("webflux-mono", Guard.TOKEN, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void webfluxMonoLock(@ForAll("durable") History history) throws Exception {
        promiseHolds("webflux-mono", Guard.LOCK, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void webfluxPlainRequestId(@ForAll("durable") History history) throws Exception {
        promiseHolds("webflux-plain", Guard.REQUEST_ID, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void webfluxPlainLock(@ForAll("durable") History history) throws Exception {
        promiseHolds("webflux-plain", Guard.LOCK, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void kafkaRecordRequestId(@ForAll("durable") History history) throws Exception {
        promiseHolds("kafka", Guard.REQUEST_ID, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void kafkaRecordLock(@ForAll("durable") History history) throws Exception {
        promiseHolds("kafka", Guard.LOCK, history);
    }

    /** Spring MVC's {@code Callable}, {@code WebAsyncTask} and {@code Mono}: the path is drawn too, and shrinks. */
    @Provide
    Arbitrary<String> mvcAsync() {
        return Arbitraries.of("mvc-callable", "mvc-webasync", "mvc-mono");
    }

    /**
     * The same, with the paths that have no property of their own for a strategy: a stream cannot be replayed
     * ({@code StreamingResponseBody}, and the server-sent events of {@link SsePaths}).
     */
    @Provide
    Arbitrary<String> mvcAsyncOrStream() {
        return Arbitraries.of("mvc-callable", "mvc-webasync", "mvc-mono", "mvc-stream", "mvc-flux", "mvc-sse");
    }

    /** And {@code DeferredResult}, whose {@code TOKEN} handler has no property of its own. */
    @Provide
    Arbitrary<String> mvcAsyncOrStreamOrDeferred() {
        return Arbitraries.of(
                "mvc-callable", "mvc-webasync", "mvc-mono", "mvc-stream", "mvc-flux", "mvc-sse", "mvc-deferred");
    }

    /** Protected bean methods whose value comes later: a {@code CompletionStage}, a {@code Flux} (LOCK only). */
    @Provide
    Arbitrary<String> beanAsync() {
        return Arbitraries.of("bean-future", "bean-flux");
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcAsyncRequestId(@ForAll("servlet") History history, @ForAll("mvcAsync") String path) throws Exception {
        promiseHolds(path, Guard.REQUEST_ID, history);
    }

    /** {@code TOKEN} on every Spring MVC async path, {@code DeferredResult} included. */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcAsyncToken(@ForAll("servlet") History history, @ForAll("mvcAsyncOrStreamOrDeferred") String path)
            throws Exception {
        promiseHolds(path, Guard.TOKEN, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcAsyncLock(@ForAll("servlet") History history, @ForAll("mvcAsyncOrStream") String path) throws Exception {
        promiseHolds(path, Guard.LOCK, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void beanFutureRequestId(@ForAll("servlet") History history) throws Exception {
        promiseHolds("bean-future", Guard.REQUEST_ID, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void beanAsyncLock(@ForAll("servlet") History history, @ForAll("beanAsync") String path) throws Exception {
        promiseHolds(path, Guard.LOCK, history);
    }

    /**
     * {@code TOKEN} outside HTTP handlers: a protected bean method (its token an argument), one returning a
     * {@code CompletionStage}, and a Kafka record (its token in the key header). One property, the path drawn, to fit
     * CI's budget.
     */
    @Provide
    Arbitrary<String> tokenElsewhere() {
        return Arbitraries.of("bean", "bean-future", "kafka");
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void beanOrKafkaToken(@ForAll("servlet") History history, @ForAll("tokenElsewhere") String path) throws Exception {
        promiseHolds(path, Guard.TOKEN, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void webfluxPlainToken(@ForAll("durable") History history) throws Exception {
        promiseHolds("webflux-plain", Guard.TOKEN, history);
    }

    /** Histories whose work may answer large, over the size limit or unrenderably, and whose clients may read slowly. */
    @Provide
    Arbitrary<History> rendering() {
        return Histories.histories(Histories.DURABLE_FAULTS, true, Histories.RENDER_ENDINGS, Histories.RENDER_OUTCOMES);
    }

    /** Delivery is not the work: an answer that fails to render, is too large to store, or is read slowly. */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcRender(@ForAll("rendering") History history, @ForAll Guard guard) throws Exception {
        promiseHolds("mvc-render", guard, history);
    }

    /** Spring MVC on a master whose replica may freeze: an unconfirmed claim is answered 503 and runs nothing. */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncRequestIdWaitingForReplicas(@ForAll("replicated") History history) throws Exception {
        promiseHolds("mvc-sync-replicated", Guard.REQUEST_ID, history);
    }

    @Provide
    Arbitrary<History> failingOver() {
        return Histories.failovers();
    }

    /**
     * The same master without {@code wait-for-replicas}, failing over: the keys whose records the failover lost may
     * run again (the documented limit) and are left out of the oracle; every other key is judged as usual, and the
     * statistics count the lost keys and the ones that ran again.
     */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncRequestIdFailingOverWithoutWaiting(@ForAll("failingOver") History history) throws Exception {
        promiseHolds("mvc-sync-failover", Guard.REQUEST_ID, history);
    }

    @Provide
    Arbitrary<History> appKills() {
        return Histories.appKills();
    }

    /**
     * The application's JVM killed (SIGKILL) mid-work, on Spring MVC with {@code REQUEST_ID} and the durable Redis: its
     * ledger is a file the kill cannot take back ({@link LedgerFile}), a new JVM serves the same port after the fault,
     * and the dead JVM's claims lapse with their lease (scenario 5). An execution the kill cut short counts as one that
     * may have had effects; a later run of its key is excused only once the JVM was dead, and never after a client
     * received a kept answer ({@code oracle.Kill}). Each history starts one JVM (some 5 s): a build plays one.
     */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncRequestIdAppKilled(@ForAll("appKills") History history) throws Exception {
        promiseHolds("mvc-sync-killed", Guard.REQUEST_ID, history);
    }

    @Provide
    Arbitrary<History> leases() {
        return Histories.leaseRegime();
    }

    /**
     * The lease regime: work outlasts its lease while Redis cannot renew it, so a duplicate may run beside it; the
     * oracle excuses that only after the first run's lease was lost, and checks that the loss was reported.
     */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncLeaseLapses(@ForAll("leases") History history, @ForAll Guard guard, @ForAll("instances") String path)
            throws Exception {
        promiseHolds(path, guard, history);
    }

    @Provide
    Arbitrary<History> heldReplies() {
        return Histories.heldReplies();
    }

    /**
     * Redis' replies held back past the lease while another call takes the expired key: a claim or lock confirmed
     * late must not run its work (answered 503), and the key's other caller runs it once.
     */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncRepliesHeldPastTheLease(@ForAll("heldReplies") History history, @ForAll("leasedGuards") Guard guard)
            throws Exception {
        promiseHolds("mvc-sync-slowlink", guard, history);
    }

    /** One application instance, or two on the same Redis ({@code mvc-sync-two}: calls alternate between them). */
    @Provide
    Arbitrary<String> instances() {
        return Arbitraries.of("mvc-sync", "mvc-sync-two");
    }

    @Provide
    Arbitrary<History> twoFaults() {
        return Histories.twoFaults();
    }

    /** Two faults in one history, the second soon after the first. */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncTwoFaults(@ForAll("twoFaults") History history, @ForAll Guard guard) throws Exception {
        promiseHolds("mvc-sync", guard, history);
    }

    /**
     * The JDBC record store: REQUEST_ID records and tokens in PostgreSQL, locks in Redis (where the faults are); Spring
     * MVC, or a bean under a transaction its caller began ({@code bean-tx}).
     */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncJdbc(@ForAll("durable") History history, @ForAll Guard guard) throws Exception {
        promiseHolds("mvc-sync-jdbc", guard, history);
    }

    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void beanInTransactionJdbc(@ForAll("durable") History history, @ForAll("leasedGuards") Guard guard)
            throws Exception {
        promiseHolds("bean-tx-jdbc", guard, history);
    }

    /** The guards that hold a lease: {@code REQUEST_ID} and {@code LOCK}. */
    @Provide
    Arbitrary<Guard> leasedGuards() {
        return Arbitraries.of(Guard.REQUEST_ID, Guard.LOCK);
    }

    /** A second application instance on the same Redis: a retry may reach the instance that did not claim. */
    @Property(shrinking = ShrinkingMode.FULL, edgeCases = EdgeCasesMode.NONE)
    void mvcSyncTwoInstances(@ForAll("durable") History history, @ForAll Guard guard) throws Exception {
        promiseHolds("mvc-sync-two", guard, history);
    }

    private void promiseHolds(String path, Guard guard, History history) throws Exception {
        if (firstFailure != 0 && System.nanoTime() - firstFailure > SHRINK_BUDGET.toNanos()) {
            return; // shrinking has had its time: this candidate is not played
        }
        Bench.Judged judged = BENCH.play(history, path, guard);
        PromiseStatistics.collect(path, history, judged);
        PromiseStatistics.check(path);
        if (judged.violations().isEmpty()) {
            return;
        }
        if (firstFailure == 0) {
            firstFailure = System.nanoTime();
        }
        new HistoryFile(path, guard, history)
                .write(HistoryFile.SHRUNK.resolve(path + "-" + guard + ".history"), judged.violations());
        assertThat(judged.violations())
                .as(
                        "%s %s: the promise broke.%n  history: %s%n  written to %s",
                        path, guard, history, HistoryFile.SHRUNK)
                .isEmpty();
    }
}
