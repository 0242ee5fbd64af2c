package dev.idempotency.reliability.promise;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Protected bean methods, outside HTTP: the key (or the token) comes from the arguments, a duplicate gets the stored
 * value ({@code REQUEST_ID}), 409 {@code lock-busy} or {@code token-used} from the starter's problem handler. The
 * caller's id travels beside the arguments (in a thread-local) so that it is not part of the payload.
 */
@Service
public class BeanWork {

    static final ThreadLocal<String> CALL = new ThreadLocal<>();

    private final Work work;
    private final ObjectProvider<Effects> effects;

    /** @param effects where the work writes its effect when it runs in its caller's transaction (JDBC store only) */
    public BeanWork(Work work, ObjectProvider<Effects> effects) {
        this.work = work;
        this.effects = effects;
    }

    /** {@code 4xx} ends as a kept value, {@code 5xx} and {@code throw} as an exception (a bean has no status). */
    @Idempotent(key = "#key")
    public String requestId(String key, Job job) {
        return run(key, job);
    }

    @Idempotent(strategy = Strategy.LOCK, key = "#key")
    public String lock(String key, Job job) {
        return run(key, job);
    }

    /**
     * Outside HTTP the token is an argument ({@code key = "#token"}); it is one of the handlers' group, so that the
     * caller fetches it from the token endpoint as for them. {@code key} is the history's key, for the ledger.
     */
    @Idempotent(strategy = Strategy.TOKEN, key = "#token", operation = ServletPaths.TOKEN_GROUP)
    public String token(String token, String key, Job job) {
        return run(key, job);
    }

    private String run(String key, Job job) {
        String call = String.valueOf(CALL.get());
        effects.ifAvailable(effect -> effect.write(key, call)); // first: a work that fails rolls it back
        return work.now(call, key, asBean(job)).getBody();
    }

    /** Runs {@code body} (which calls a protected method of this bean) on behalf of the caller {@code call}. */
    static <T> T onBehalfOf(String call, Supplier<T> body) {
        CALL.set(call);
        try {
            return body.get();
        } finally {
            CALL.remove();
        }
    }

    /** A bean has no status: the work's {@code 5xx} is an exception. */
    static Job asBean(Job job) {
        return job.outcome().equals("5xx") ? new Job(job.tag(), "throw", job.millis()) : job;
    }
}
