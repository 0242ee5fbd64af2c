package dev.idempotency.reliability.promise;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.KafkaHeaders;

/**
 * The producers of the Kafka entry path: each call is a record with the key (its token under {@code TOKEN}, one per
 * key, issued before the history) and the call's id as its correlation id, on a partition of its own choosing, so
 * that duplicates meet on different consumers. A producer cannot go away early, so every ending is a send. What a
 * client saw is the listener's reply, read from the reply topic once the listeners are done.
 */
final class KafkaCaller implements Caller, AutoCloseable {

    private static final Duration DRAIN_DEADLINE = Duration.ofSeconds(60);

    private final Guard guard;
    private final String topic;
    private final KafkaTemplate<?, ?> replier;
    private final KafkaProducer<String, String> producer;
    private final KafkaConsumer<String, String> replies;
    private final KafkaOffsets offsets;
    private final TokenSupply tokens;
    private final List<TopicPartition> replyPartitions = KafkaOffsets.partitions(KafkaPaths.REPLIES);

    /** @param tokens issues the tokens of the {@code TOKEN} listener's records */
    KafkaCaller(String bootstrap, Guard guard, KafkaTemplate<?, ?> replier, TokenSupply tokens) {
        this.guard = guard;
        this.topic = KafkaPaths.topic(guard);
        this.replier = replier;
        this.tokens = tokens;
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
        this.replies = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));
        replies.assign(replyPartitions);
        replies.seekToEnd(replyPartitions);
        replyPartitions.forEach(replies::position); // fixes the start now: earlier histories' replies are not ours
        this.offsets = new KafkaOffsets(bootstrap);
    }

    @Override
    public void prepare(Collection<String> keys) {
        if (guard == Guard.TOKEN) {
            tokens.prepare(keys);
        }
    }

    @Override
    public Answer call(History.Call call, String key, Job job, String id) throws Exception {
        send(key, job, id, call.at());
        return Answer.none(id, call.key());
    }

    @Override
    public Answer last(int index, int attempt, String key, Job job, String id) throws Exception {
        send(key, job, id, index);
        return new Answer(id, index, true, Answer.NONE, "", false, null);
    }

    private void send(String key, Job job, String id, int spread) throws Exception {
        ProducerRecord<String, String> record =
                new ProducerRecord<>(topic, Math.floorMod(spread, KafkaPaths.PARTITIONS), key, HttpCaller.json(job));
        record.headers().add(KafkaPaths.CALL, id.getBytes(StandardCharsets.UTF_8));
        record.headers().add(KafkaHeaders.CORRELATION_ID, id.getBytes(StandardCharsets.UTF_8));
        if (guard != Guard.LOCK) { // the token travels where a key would
            String keyOrToken = guard == Guard.TOKEN ? tokens.of(key) : key;
            record.headers().add("Idempotency-Key", keyOrToken.getBytes(StandardCharsets.UTF_8));
        }
        producer.send(record).get(10, TimeUnit.SECONDS);
    }

    /** Waits until the listener's group has committed every record sent, then until its replies are sent. */
    @Override
    public void drain() throws Exception {
        long deadline = System.nanoTime() + DRAIN_DEADLINE.toNanos();
        while (!offsets.committedEverything(topic)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(
                        "the listeners of " + topic + " did not consume every record within " + DRAIN_DEADLINE);
            }
            Thread.sleep(50);
        }
        replier.flush();
    }

    /** The answers, with the reply of each call that got one. */
    @Override
    public List<Answer> seen(List<Answer> answers) {
        Map<String, String> byCall = new HashMap<>();
        try {
            Map<TopicPartition, Long> ends = offsets.ends(replyPartitions);
            long deadline = System.nanoTime() + DRAIN_DEADLINE.toNanos();
            while (ends.entrySet().stream().anyMatch(end -> replies.position(end.getKey()) < end.getValue())
                    && System.nanoTime() - deadline < 0) {
                for (ConsumerRecord<String, String> reply : replies.poll(Duration.ofMillis(100))) {
                    Header correlation = reply.headers().lastHeader(KafkaHeaders.CORRELATION_ID);
                    if (correlation != null) {
                        byCall.put(new String(correlation.value(), StandardCharsets.UTF_8), reply.value());
                    }
                }
            }
        } catch (Exception ex) {
            throw new IllegalStateException("Could not read the replies", ex);
        }
        List<Answer> seen = new ArrayList<>();
        for (Answer answer : answers) {
            String reply = byCall.get(answer.call());
            seen.add(
                    reply == null
                            ? answer
                            : new Answer(answer.call(), answer.key(), answer.last(), 200, reply, false, null));
        }
        return seen;
    }

    @Override
    public void close() {
        producer.close();
        replies.close();
        offsets.close();
    }
}
