package dev.idempotency.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RaceTests {

    private static final int THREADS = 8;

    @Test
    void everyThreadWaitsAtTheGateBeforeAnyTaskRuns() throws Exception {
        AtomicInteger fewestThreadsSeen = new AtomicInteger(Integer.MAX_VALUE);
        Set<String> threadNames = ConcurrentHashMap.newKeySet();
        AtomicInteger ran = new AtomicInteger();

        Race.run(THREADS, 4 * THREADS, i -> {
            String name = Thread.currentThread().getName();
            String run = name.substring(0, name.lastIndexOf('-') + 1);
            long alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(thread -> thread.getName().startsWith(run))
                    .count();
            fewestThreadsSeen.accumulateAndGet((int) alive, Math::min);
            threadNames.add(name);
            ran.incrementAndGet();
        });

        assertThat(ran).hasValue(4 * THREADS);
        assertThat(threadNames).hasSize(THREADS);
        assertThat(fewestThreadsSeen)
                .as("threads alive when the first task ran")
                .hasValue(THREADS);
    }

    @Test
    void tasksReallyRunAtTheSameTime() throws Exception {
        CountDownLatch allInside = new CountDownLatch(THREADS);

        // Only passes if all eight tasks are inside at once; each would wait 5 s in vain otherwise.
        Race.run(THREADS, THREADS, Duration.ofSeconds(10), i -> {
            allInside.countDown();
            assertThat(allInside.await(5, java.util.concurrent.TimeUnit.SECONDS))
                    .isTrue();
        });
    }

    @Test
    void rethrowsTheFirstFailureUnchangedWithTheOthersSuppressedAfterAllTasksRan() {
        AtomicInteger ran = new AtomicInteger();

        assertThatThrownBy(() -> Race.run(4, 10, i -> {
                    ran.incrementAndGet();
                    if (i % 2 == 0) {
                        throw new AssertionError("task " + i + " failed");
                    }
                }))
                .isInstanceOf(AssertionError.class)
                .hasMessageMatching("task \\d failed")
                .satisfies(failure -> assertThat(failure.getSuppressed()).hasSize(4));
        assertThat(ran).hasValue(10);
    }

    @Test
    void rethrowsCheckedExceptionsAsTheyAre() {
        assertThatThrownBy(() -> Race.run(2, 2, i -> {
                    throw new IOException("disk " + i);
                }))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("disk ");
    }

    @Test
    void aHangingTaskFailsTheRunAtTheDeadlineWithItsStack() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> Race.run(2, 3, Duration.ofMillis(500), i -> {
                    if (i == 1) {
                        new CountDownLatch(1).await();
                    }
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Timed out after 500 ms waiting for a race of 3 tasks on 2 threads: 1 unfinished")
                .hasMessageContaining("RaceTests.lambda");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void awaitReportsWhetherTheConditionHeldInTime() {
        AtomicInteger polls = new AtomicInteger();

        assertThat(Race.await(Duration.ofSeconds(5), 10, () -> polls.incrementAndGet() == 3))
                .isTrue();
        assertThat(Race.await(Duration.ofMillis(100), 10, () -> false)).isFalse();
        assertThatThrownBy(() -> Race.until(Duration.ofMillis(100), "the impossible", () -> false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Timed out after 100 ms waiting for the impossible");
    }
}
