package dev.idempotency.kafka;

import dev.idempotency.Idempotent;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * Two consumers that both get every record of one topic (two groups) and share one operation: whichever claims a key
 * first holds it until the test releases it, so the other meets the key in progress, as a consumer does that takes
 * over a partition after a rebalance while the former owner is still processing.
 */
class SlowListeners {

    private final Executions executions = new Executions();
    private final CountDownLatch working = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    // Fields are read through these methods: the test holds the AOP proxy, whose own fields are never set.
    public Executions executions() {
        return executions;
    }

    public CountDownLatch working() {
        return working;
    }

    public CountDownLatch release() {
        return release;
    }

    @KafkaListener(id = "slow-a", topics = "slow")
    @Idempotent(operation = "slow-work")
    public void first(String job) throws InterruptedException {
        work(job);
    }

    @KafkaListener(id = "slow-b", topics = "slow")
    @Idempotent(operation = "slow-work")
    public void second(String job) throws InterruptedException {
        work(job);
    }

    private void work(String job) throws InterruptedException {
        working.countDown();
        if (!release.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("The test never released the work");
        }
        executions.increment(job);
    }
}
