package dev.idempotency.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idempotency.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The line of statements of the JDBC stores: statements that keep running work safe go first, the line is bounded, and
 * a statement whose deadline passed in line is not run. Deterministic: one thread, held by a statement that waits on a
 * latch while the others queue.
 */
class StatementLineTests {

    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    @Test
    void renewalsAndSettlementsGoBeforeNewClaims() throws Exception {
        StatementLine line = new StatementLine(1, MINUTE);
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        try {
            CountDownLatch release = occupy(line, 1);
            List<CompletableFuture<Boolean>> queued = new ArrayList<>();
            for (String kind : List.of("claim", "renew", "purge", "complete", "release", "claim")) {
                int place = queued.size();
                queued.add(line.submit(kind, () -> ran.add(kind + place)));
            }
            release.countDown();
            CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(ran).containsExactly("renew1", "complete3", "release4", "claim0", "purge2", "claim5");
        } finally {
            line.close();
        }
    }

    @Test
    void aFullLineRefusesAtOnce() throws Exception {
        StatementLine line = new StatementLine(1, MINUTE);
        CountDownLatch release = occupy(line, 1);
        try {
            for (int i = 0; i < 64; i++) {
                line.submit("claim", () -> "waited");
            }
            assertThatThrownBy(() -> line.submit("claim", () -> "one too many").get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(RejectedExecutionException.class);
        } finally {
            release.countDown();
            line.close();
        }
    }

    @Test
    void aStatementWhoseDeadlinePassedInLineIsNotRun() throws Exception {
        long deadline = TimeUnit.MILLISECONDS.toNanos(200);
        StatementLine line = new StatementLine(1, deadline);
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch release = occupy(line, 1);
        try {
            long submitted = System.nanoTime();
            CompletableFuture<Boolean> late = line.submit("claim", () -> ran.add("late"));
            // The condition under test is the clock: the thread is released only once the deadline has passed.
            Await.until(
                    Duration.ofSeconds(30),
                    "the queued statement's deadline to pass",
                    () -> System.nanoTime() - submitted > deadline);
            release.countDown();
            assertThatThrownBy(() -> late.get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(RejectedExecutionException.class);
            assertThat(ran).isEmpty();
        } finally {
            line.close();
        }
    }

    @Test
    void aCallerThatWaitsRunsItsStatementHereWhenAThreadIsFree() throws Exception {
        StatementLine line = new StatementLine(1, MINUTE);
        Thread caller = Thread.currentThread();
        try {
            CompletableFuture<Thread> ran = line.runHere("claim", Thread::currentThread);
            assertThat(ran).isDone();
            assertThat(ran.get()).isSameAs(caller);
        } finally {
            line.close();
        }
    }

    @Test
    void aCallerThatWaitsGoesInLineWhenEveryThreadIsBusy() throws Exception {
        StatementLine line = new StatementLine(1, MINUTE);
        CountDownLatch release = occupy(line, 1);
        try {
            CompletableFuture<Thread> ran = line.runHere("claim", Thread::currentThread);
            assertThat(ran).isNotDone();
            release.countDown();
            assertThat(ran.get(30, TimeUnit.SECONDS)).isNotSameAs(Thread.currentThread());
            assertThat(ran.get().getName()).startsWith("idempotency-jdbc-");
        } finally {
            release.countDown();
            line.close();
        }
    }

    @Test
    void aCallerThatWaitsNeverRunsAheadOfAStatementInLine() throws Exception {
        // One thread, so that the statements in line run one after the other, in the line's order.
        StatementLine line = new StatementLine(1, MINUTE);
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch release = occupy(line, 1);
        try {
            CompletableFuture<Boolean> renewal = line.submit("renew", () -> ran.add("renew"));
            // The thread busy and a renewal in line: the caller queues behind it instead of taking the next free slot.
            CompletableFuture<Boolean> claim = line.runHere("claim", () -> ran.add("claim"));
            assertThat(claim).isNotDone();
            release.countDown();
            CompletableFuture.allOf(renewal, claim).get(30, TimeUnit.SECONDS);
            assertThat(ran).containsExactly("renew", "claim");
        } finally {
            release.countDown();
            line.close();
        }
    }

    /** Takes each of the line's {@code threads} with a statement that waits until the latch returned is counted down. */
    private static CountDownLatch occupy(StatementLine line, int threads) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < threads; i++) {
            line.submit("claim", () -> hold(running, release));
        }
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    private static String hold(CountDownLatch running, CountDownLatch release) {
        running.countDown();
        try {
            assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        return "held";
    }
}
