package dev.idempotency.reliability.promise.oracle;

import dev.idempotency.reliability.promise.Guard;
import dev.idempotency.reliability.promise.Ledger;
import java.util.List;
import java.util.Objects;

/**
 * The rules of one Kafka record: it runs once (earlier deliveries may only have failed, and were redelivered), or,
 * under {@code REQUEST_ID}, it is skipped as a duplicate and replied to with the kept answer, or dropped as a mismatch
 * because a run with another payload held the key when it came (kept or not: the contract answers another payload
 * with 422 whatever the first call's fate, and no redelivery can fix a mismatch). A reply is always its own run's
 * answer or the kept one. Under {@code TOKEN} a record runs once, or is refused (recovered at once, without a reply: no redelivery can
 * fix it) because another record used its token: one whose run used it up, or that ran when this one was sent (a run
 * that fails gives the token back, so a record sent after that must run), or, under a fault, any other that ran (a
 * give-back that cannot reach Redis is retried for a while); its reply is only ever its own run's answer. Its offset
 * is committed: the caller drains every partition before the history is judged.
 */
final class Records {

    private Records() {}

    static void judge(PathContract contract, KeyModel model, CallRecord record, boolean faulted, List<String> out) {
        List<Ledger.Execution> ran = model.runsOf(record.id());
        for (int i = 0; i < ran.size() - 1; i++) {
            if (!ran.get(i).outcome().equals("throw")) {
                out.add("once: record " + record.id() + " ran " + ran.size() + " times, though its run " + (i + 1)
                        + " ended " + ran.get(i).outcome());
            }
        }
        Ledger.Execution kept = model.kept();
        boolean replied = record.status() != CallRecord.NONE;
        if (replied && ran.stream().noneMatch(run -> run.answer().equals(record.body()))) {
            if (contract.guard() == Guard.TOKEN) {
                out.add("token: record " + record.id() + " got the reply \"" + record.body()
                        + "\", not its own run's answer: a token is never replayed");
            } else if (kept == null || !kept.answer().equals(record.body())) {
                out.add("same answer: record " + record.id() + " got the reply \"" + record.body()
                        + "\", neither its own run's answer nor the kept one");
            }
        }
        if (!ran.isEmpty()) {
            return;
        }
        if (contract.guard() == Guard.LOCK) {
            out.add("records: record " + record.id() + " never ran");
        } else if (contract.guard() == Guard.TOKEN) {
            if (!model.tokenUsedByAnother(record, faulted)) {
                out.add("records: record " + record.id() + " never ran, though no other record used its token up or"
                        + " held it when it was sent");
            }
        } else if ((kept != null && !Objects.equals(model.keptPayload(), record.payload()))
                || model.otherPayloadRanMeanwhile(record)) {
            return; // another payload held the key: the mismatched record is dropped
        } else if (!replied || kept == null) {
            out.add("records: record " + record.id() + " neither ran nor was skipped as a duplicate of a kept run");
        }
    }
}
