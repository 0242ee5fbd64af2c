package dev.idempotency.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Exactly-once effects across a rebalance: 500 ledger entries, each sent twice (1,000 records), the two copies of an
 * entry on partitions two apart, so that after the rebalance they usually belong to different consumers. The second
 * consumer joins the group once the first has handled 100 records, while records keep arriving.
 */
class KafkaRebalanceTests extends KafkaTest {

    private static final int ENTRIES = 500;
    private static final int PARTITIONS = 4;

    @Autowired
    Ledger ledger;

    @Test
    void everyEntryIsBookedOnceAcrossARebalance() throws Exception {
        String run = unique("run");
        // Before the rebalance: the first copies of entries 0-299 and the second copies of entries 0-99.
        for (int entry = 0; entry < 300; entry++) {
            sendCopy(run, entry, 0);
            if (entry >= 200) {
                sendCopy(run, entry - 200, 1);
            }
        }
        await("the first consumer to handle 100 records", () -> deliveries.distinctSucceeded(Ledger.TOPIC) >= 100);

        MessageListenerContainer second = containers.getListenerContainer("ledger-2");
        second.start();
        // While the group rebalances: the first copies of entries 300-399 and the second copies of 100-199.
        for (int entry = 300; entry < 400; entry++) {
            sendCopy(run, entry, 0);
            sendCopy(run, entry - 200, 1);
        }
        await("the second consumer to be assigned partitions", () -> {
            Collection<TopicPartition> assigned = second.getAssignedPartitions();
            return assigned != null && !assigned.isEmpty();
        });
        // After it: the first copies of entries 400-499 and the second copies of 200-499.
        for (int entry = 400; entry < ENTRIES; entry++) {
            sendCopy(run, entry, 0);
        }
        for (int entry = 200; entry < ENTRIES; entry++) {
            sendCopy(run, entry, 1);
        }

        await(
                "all 1,000 records handled",
                () -> deliveries.distinctSucceeded(Ledger.TOPIC) == 2 * ENTRIES,
                () -> "(handled: " + deliveries.distinctSucceeded(Ledger.TOPIC) + ")");
        Map<String, Integer> bookings = IntStream.range(0, ENTRIES)
                .mapToObj(entry -> entry(run, entry))
                .collect(Collectors.toMap(entry -> entry, ledger.bookings()::of));
        assertThat(bookings)
                .hasSize(ENTRIES)
                .allSatisfy((entry, count) -> assertThat(count).as(entry).isEqualTo(1));
        assertThat(deliveries.succeededOn(Ledger.TOPIC, "ledger-1")).isPositive();
        assertThat(deliveries.succeededOn(Ledger.TOPIC, "ledger-2")).isPositive();
    }

    /** Copy 0 of an entry goes to partition {@code entry % 4}, copy 1 two partitions further; both carry one key. */
    private void sendCopy(String run, int entry, int copy) throws Exception {
        int partition = (entry + 2 * copy) % PARTITIONS;
        send(Ledger.TOPIC, partition, null, run + "/" + entry, entry(run, entry));
    }

    private static String entry(String run, int entry) {
        return run + "/entry-" + entry;
    }
}
