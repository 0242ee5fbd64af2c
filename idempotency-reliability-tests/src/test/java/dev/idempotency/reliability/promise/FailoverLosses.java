package dev.idempotency.reliability.promise;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.reliability.promise.oracle.CallRecord;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Which keys of a history a failover without {@code wait-for-replicas} lost: their records on the promoted replica
 * differ from what the old master had acknowledged, so their work may run again. That is the documented limit of an
 * application that does not wait for replicas; the oracle leaves those keys out (the liveness checks still hold for
 * them), judges every other key as usual, and the statistics count what the losses did.
 */
record FailoverLosses(Set<Integer> keys) {

    static final FailoverLosses NONE = new FailoverLosses(Set.of());

    /** The history's {@code REQUEST_ID} keys on the Spring MVC {@code endpoint} whose records the failover lost. */
    static FailoverLosses of(ConfigurableApplicationContext app, String endpoint, HistoryRunner.Played played) {
        RedisKeys redisKeys = app.getBean(RedisKeys.class);
        String operation = "POST /p/" + endpoint + "/" + Guard.REQUEST_ID.segment(); // the handler's route
        Set<Integer> lost = played.records().stream()
                .map(CallRecord::key)
                .filter(key -> played.lostInFailover().contains(redisKeys.requestId("", operation, played.key(key))))
                .collect(Collectors.toUnmodifiableSet());
        return new FailoverLosses(lost);
    }

    List<CallRecord> judged(List<CallRecord> records) {
        return records.stream().filter(call -> !keys.contains(call.key())).toList();
    }

    /** Whether a lost key's work ran again after a run whose answer was kept (ok, 4xx): what the loss cost. */
    boolean ranAgain(HistoryRunner.Played played, List<Ledger.Execution> runs) {
        return keys.stream().anyMatch(key -> {
            List<Ledger.Execution> ofKey = runs.stream()
                    .filter(run -> run.key().equals(played.key(key)))
                    .toList();
            return ofKey.stream()
                    .filter(run -> run.outcome().equals("ok") || run.outcome().equals("4xx"))
                    .anyMatch(kept -> ofKey.stream().anyMatch(later -> later.start() > kept.start()));
        });
    }
}
