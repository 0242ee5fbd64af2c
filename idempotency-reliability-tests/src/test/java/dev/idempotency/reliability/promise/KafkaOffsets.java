package dev.idempotency.reliability.promise;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the checker's topics end and how far their listeners committed, asked of the broker: {@link KafkaCaller}
 * waits on them to know that every record sent was handled, and that every reply sent was read.
 */
final class KafkaOffsets implements AutoCloseable {

    private final Admin admin;

    KafkaOffsets(String bootstrap) {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** Whether the listener group of {@code topic} (its id is the topic's name) committed every record of it. */
    boolean committedEverything(String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(topic)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        return ends(partitions(topic)).entrySet().stream().allMatch(end -> {
            OffsetAndMetadata offset = committed.get(end.getKey());
            return end.getValue() == (offset == null ? 0 : offset.offset());
        });
    }

    /** The end offset of each of {@code partitions}. */
    Map<TopicPartition, Long> ends(List<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest)
                .all()
                .get(10, TimeUnit.SECONDS)
                .forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    /** Every partition of {@code topic}. */
    static List<TopicPartition> partitions(String topic) {
        return IntStream.range(0, KafkaPaths.PARTITIONS)
                .mapToObj(partition -> new TopicPartition(topic, partition))
                .toList();
    }

    @Override
    public void close() {
        admin.close();
    }
}
