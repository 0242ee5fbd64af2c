package dev.idempotency.reliability.promise;

import dev.idempotency.reliability.promise.oracle.PathContract;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The business effect of protected work that runs in a transaction its caller began ({@code bean-tx} on the JDBC
 * store): one row a run, written in that transaction, so that it exists only if the transaction committed. The claim's
 * completion commits with it, and a claim taken over before the commit must fail it (issue 36), so a key commits one
 * effect at most; a run whose transaction did not commit is judged as not run (its caller gets 503).
 */
final class Effects {

    private final JdbcTemplate jdbc;

    Effects(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        jdbc.execute("CREATE TABLE IF NOT EXISTS promise_effects"
                + " (effect_key VARCHAR(200) NOT NULL, call_id VARCHAR(200) NOT NULL)");
    }

    /** The work of {@code call} on {@code key} writes its effect, when it runs in a transaction (else none). */
    void write(String key, String call) {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            jdbc.update("INSERT INTO promise_effects (effect_key, call_id) VALUES (?, ?)", key, call);
        }
    }

    /** The committed effects on keys beginning with {@code prefix}: the calls that wrote them, by key. */
    Map<String, List<String>> committed(String prefix) {
        Map<String, List<String>> byKey = new TreeMap<>();
        jdbc.query(
                "SELECT effect_key, call_id FROM promise_effects WHERE effect_key LIKE ? ORDER BY call_id",
                row -> {
                    byKey.computeIfAbsent(row.getString(1), key -> new ArrayList<>())
                            .add(row.getString(2));
                },
                prefix + "%");
        return byKey;
    }

    /** A key commits one effect at most: a second means a late commit went through beside another owner's. */
    static List<String> judge(Map<String, List<String>> committed) {
        return committed.entrySet().stream()
                .filter(key -> key.getValue().size() > 1)
                .map(key -> "once: the work's transaction committed "
                        + key.getValue().size() + " times on "
                        + key.getKey() + " (" + String.join(", ", key.getValue()) + "): a claim taken over before"
                        + " its commit must fail it")
                .toList();
    }

    /**
     * The runs whose work counts: a run whose outcome would be kept but whose effect did not commit was rolled back (its
     * completion failed the commit, the claim taken over), so for the promise it did not run: its caller must be told
     * so (503, as a claim taken over is answered), and a run beside it needs no excuse.
     */
    static List<Ledger.Execution> asCommitted(
            List<Ledger.Execution> runs, Map<String, List<String>> committed, PathContract contract) {
        Set<String> calls = committed.values().stream().flatMap(List::stream).collect(Collectors.toSet());
        return runs.stream()
                .filter(run -> !contract.keeps(run.outcome()) || calls.contains(run.call()))
                .toList();
    }
}
