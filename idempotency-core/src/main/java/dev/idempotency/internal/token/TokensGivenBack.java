package dev.idempotency.internal.token;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The tokens this instance is still giving back: their submit failed (or could not know whether its consume took
 * effect), and the store has not confirmed the give-back yet, e.g. while Redis restarts. A submit that finds such a
 * token used must not be told that another submit used it: the token comes back within moments, so that submit is
 * told to retry (a Kafka record is delivered again) instead of being dropped as a duplicate.
 */
final class TokensGivenBack {

    /** How many give-backs of each token are under way (two submits of one token may both fail). */
    private final ConcurrentMap<String, Integer> underWay = new ConcurrentHashMap<>();

    /** Gives the token under {@code key} back for {@code mark}'s submit, and keeps it listed until that settles. */
    CompletableFuture<Void> giveBack(TokenStore store, String key, String mark) {
        underWay.merge(key, 1, Integer::sum);
        return store.giveBack(
                key, mark, () -> underWay.computeIfPresent(key, (k, count) -> count == 1 ? null : count - 1));
    }

    /** Whether a give-back of the token under {@code key} is still under way here. */
    boolean isUnderWay(String key) {
        return underWay.containsKey(key);
    }
}
