package dev.idempotency.reliability.promise;

/**
 * What a call asks the work to do: {@code tag} tells payloads apart, {@code outcome} is how the work ends ({@code ok},
 * {@code 4xx}, {@code 5xx}, {@code throw}) and {@code millis} how long it takes.
 */
public record Job(String tag, String outcome, int millis) {

    /** The answer of execution {@code id}: unique, so that a replay of another execution's answer shows. */
    static String answer(long id, String key, Job job) {
        return "exec-" + id + " key=" + key + " tag=" + job.tag();
    }
}
