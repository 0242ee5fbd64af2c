package dev.idempotency.reliability.promise;

import dev.idempotency.reliability.promise.oracle.Kill;
import dev.idempotency.reliability.promise.oracle.Oracle;
import dev.idempotency.reliability.promise.oracle.PathContract;
import dev.idempotency.token.TokenExecutor;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * What histories are played on: the Redis backends, the applications of every entry path and the Kafka broker, each
 * started on first use; and the judgement of one played history ({@link PromiseChecker} and the {@link Oracle}).
 */
final class Bench implements AutoCloseable {

    private final Lazy<Backend> durable = new Lazy<>(Backend::durable);
    private final Lazy<Backend> replicated = new Lazy<>(Backend::replicated);
    private final Lazy<ConfigurableApplicationContext> mvc =
            new Lazy<>(() -> PromiseApp.start(WebApplicationType.SERVLET, durable.get()));
    /** Two instances on the same Redis, sharing one ledger: {@code -two} paths call both. */
    private final Lazy<ConfigurableApplicationContext> mvcFirstOfTwo =
            new Lazy<>(() -> PromiseApp.start(WebApplicationType.SERVLET, durable.get(), "promise.ledger=shared"));

    private final Lazy<ConfigurableApplicationContext> mvcSecondOfTwo =
            new Lazy<>(() -> PromiseApp.start(WebApplicationType.SERVLET, durable.get(), "promise.ledger=shared"));
    /** Spring MVC with the REQUEST_ID records and the tokens in PostgreSQL ({@code -jdbc} paths). */
    private final Lazy<ConfigurableApplicationContext> mvcJdbc =
            new Lazy<>(() -> PromiseApp.start(WebApplicationType.SERVLET, durable.get(), "idempotency.store=jdbc"));

    private final Lazy<ConfigurableApplicationContext> mvcOneThread = new Lazy<>(() -> PromiseApp.start(
            WebApplicationType.SERVLET,
            durable.get(),
            "server.tomcat.threads.max=1",
            "server.tomcat.threads.min-spare=1"));
    private final Lazy<ConfigurableApplicationContext> webflux =
            new Lazy<>(() -> PromiseApp.start(WebApplicationType.REACTIVE, durable.get()));
    private final Lazy<ConfigurableApplicationContext> mvcReplicated = new Lazy<>(() -> PromiseApp.start(
            WebApplicationType.SERVLET,
            replicated.get(),
            "idempotency.redis.wait-for-replicas=1",
            "idempotency.redis.wait-for-replicas-timeout=300ms"));
    /** The same master without {@code wait-for-replicas}: a failover loses acknowledged writes. */
    private final Lazy<ConfigurableApplicationContext> mvcFailingOver =
            new Lazy<>(() -> PromiseApp.start(WebApplicationType.SERVLET, replicated.get()));

    /** Redis' replies may be held past the lease: a command timeout longer than any hold ({@code -slowlink}). */
    private final Lazy<ConfigurableApplicationContext> mvcSlowLink = new Lazy<>(
            () -> PromiseApp.start(WebApplicationType.SERVLET, durable.get(), "spring.data.redis.timeout=6s"));

    /** Spring MVC in a JVM of its own, which {@code APP_KILLED} kills and starts again ({@code -killed} paths). */
    private final Lazy<ChildApp> killable = new Lazy<>(() -> ChildApp.start(durable.get()));

    private final Lazy<EmbeddedKafkaKraftBroker> broker = new Lazy<>(Bench::broker);
    private final Lazy<ConfigurableApplicationContext> kafka = new Lazy<>(() -> PromiseApp.start(
            WebApplicationType.NONE,
            durable.get(),
            "promise.kafka=true",
            "spring.kafka.bootstrap-servers=" + broker.get().getBrokersAsString(),
            "spring.kafka.consumer.auto-offset-reset=earliest",
            "idempotency.kafka.in-progress-retry-interval=100ms"));
    /** The producers of each strategy's listener, made on first use. */
    private final Map<Guard, KafkaCaller> kafkaCallers = new EnumMap<>(Guard.class);

    /** The outcome of one history: what was played, and the violations of the promise (empty when it held). */
    record Judged(
            HistoryRunner.Played played, List<Ledger.Execution> runs, List<String> violations, FailoverLosses lost) {}

    /** Plays {@code history} on entry path {@code path} under {@code guard}, and judges it. */
    Judged play(History history, String path, Guard guard) throws Exception {
        boolean isReplicated = path.endsWith("-replicated") || path.endsWith("-failover");
        Backend backend = (isReplicated ? replicated : durable).get();
        String endpoint = path.replaceAll("-(replicated|failover|two|jdbc|slowlink|killed)$", "");
        PathContract contract = PathContract.of(endpoint, guard);
        if (path.endsWith("-killed")) { // the application in a JVM of its own, which the history's fault kills
            ChildApp child = killable.get();
            HttpCaller caller = new HttpCaller(endpoint, guard, child.port());
            HistoryRunner.Played played = new HistoryRunner(backend, child, child).play(history, caller);
            List<Ledger.Execution> runs =
                    Kill.judged(ofHistory(child.ended(), played), child.kills(), played.records(), played.keyPrefix());
            return judge(history, path, guard, contract, played, child, runs, new ArrayList<>(), FailoverLosses.NONE);
        }
        ConfigurableApplicationContext app = app(path, history);
        Caller caller = path.equals("kafka")
                ? kafkaCallers.computeIfAbsent(guard, this::kafkaCaller)
                : path.endsWith("-two")
                        ? new HttpCaller(endpoint, guard, PromiseApp.port(app), PromiseApp.port(mvcSecondOfTwo.get()))
                        : new HttpCaller(endpoint, guard, PromiseApp.port(app));
        Ledger ledger = app.getBean(Ledger.class);
        HistoryRunner.Played played = new HistoryRunner(backend, ledger, backend).play(history, caller);
        List<Ledger.Execution> runs = ofHistory(ledger.ended(), played);
        List<String> violations = new ArrayList<>();
        if (endpoint.startsWith("bean-tx") && guard == Guard.REQUEST_ID) { // a claim completes in the caller's commit
            Map<String, List<String>> committed = app.getBean(Effects.class).committed(played.keyPrefix());
            violations.addAll(Effects.judge(committed));
            runs = Effects.asCommitted(runs, committed, contract);
        }
        FailoverLosses lost =
                path.endsWith("-failover") ? FailoverLosses.of(app, endpoint, played) : FailoverLosses.NONE;
        return judge(history, path, guard, contract, played, ledger, runs, violations, lost);
    }

    private static List<Ledger.Execution> ofHistory(List<Ledger.Execution> ended, HistoryRunner.Played played) {
        return ended.stream()
                .filter(run -> run.key().startsWith(played.keyPrefix()))
                .toList();
    }

    /** Judges a played history: its runs as the oracle sees them, beside {@code violations} found already. */
    private Judged judge(
            History history,
            String path,
            Guard guard,
            PathContract contract,
            HistoryRunner.Played played,
            LedgerView ledger,
            List<Ledger.Execution> runs,
            List<String> violations,
            FailoverLosses lost) {
        if (Boolean.getBoolean("promise.verbose")) {
            System.out.println("[promise] " + path + " " + guard + " " + history);
            played.records().forEach(call -> System.out.println("[promise]   " + call + " " + call.body()));
            runs.forEach(run -> System.out.println("[promise]   ran " + run));
        }
        violations.addAll(PromiseChecker.check(played, ledger.ended(), ledger.running(), guard));
        violations.addAll(Oracle.judge(
                contract,
                played.keyPrefix(),
                lost.judged(played.records()),
                runs,
                ledger.lossReports(),
                faults(history)));
        (path.endsWith("-replicated") || path.endsWith("-failover") ? replicated : durable)
                .get()
                .clearLeftovers(); // reported above; a history that follows must not inherit them
        return new Judged(played, runs, violations, lost);
    }

    /** The kinds of the faults {@code history} injects: none when it injects none. */
    private static Set<History.Fault.Kind> faults(History history) {
        Set<History.Fault.Kind> kinds = EnumSet.noneOf(History.Fault.Kind.class);
        for (History.Fault fault : List.of(history.fault(), history.then())) {
            if (fault.span() > 0) {
                kinds.add(fault.kind());
            }
        }
        return kinds;
    }

    private ConfigurableApplicationContext app(String path, History history) {
        if (path.endsWith("-replicated")) {
            return mvcReplicated.get();
        }
        if (path.endsWith("-failover")) {
            return mvcFailingOver.get();
        }
        if (path.endsWith("-two")) {
            return mvcFirstOfTwo.get();
        }
        if (path.endsWith("-jdbc")) {
            return mvcJdbc.get();
        }
        if (path.endsWith("-slowlink")) {
            return mvcSlowLink.get();
        }
        if (path.startsWith("webflux")) {
            return webflux.get();
        }
        if (path.equals("kafka")) {
            return kafka.get();
        }
        return history.oneThread() ? mvcOneThread.get() : mvc.get();
    }

    private static EmbeddedKafkaKraftBroker broker() {
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(
                1, KafkaPaths.PARTITIONS, KafkaPaths.REQUEST_ID, KafkaPaths.LOCK, KafkaPaths.TOKEN, KafkaPaths.REPLIES);
        broker.afterPropertiesSet();
        return broker;
    }

    private KafkaCaller kafkaCaller(Guard guard) {
        return new KafkaCaller(
                broker.get().getBrokersAsString(),
                guard,
                kafka.get().getBean(KafkaTemplate.class),
                TokenSupply.of(kafka.get().getBean(TokenExecutor.class), KafkaPaths.TOKEN));
    }

    @Override
    public void close() {
        kafkaCallers.values().forEach(KafkaCaller::close);
        kafkaCallers.clear();
        for (Lazy<ConfigurableApplicationContext> app : List.of(
                mvc,
                mvcFirstOfTwo,
                mvcSecondOfTwo,
                mvcJdbc,
                mvcOneThread,
                webflux,
                mvcReplicated,
                mvcFailingOver,
                mvcSlowLink,
                kafka)) {
            app.close(ConfigurableApplicationContext::close);
        }
        killable.close(ChildApp::close);
        broker.close(EmbeddedKafkaKraftBroker::destroy);
        durable.close(Backend::close);
        replicated.close(Backend::close);
    }
}
