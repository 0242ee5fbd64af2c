package dev.idempotency.reliability.promise;

import dev.idempotency.Idempotent;
import dev.idempotency.Strategy;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.messaging.handler.annotation.SendTo;

/**
 * The Kafka entry path: {@code @Idempotent} listeners, two consumers each, so that duplicates on other partitions run
 * concurrently. The key is the record header ({@code REQUEST_ID}; the token, {@code TOKEN}) or the record key
 * ({@code LOCK}); a {@code REQUEST_ID} listener replies, and a duplicate's reply is the stored result; a
 * {@code TOKEN} listener replies when it runs.
 */
public class KafkaPaths {

    static final String REQUEST_ID = "promise-request-id";
    static final String LOCK = "promise-lock";
    /** The {@code TOKEN} listener's topic, and the operation its tokens are issued for. */
    static final String TOKEN = "promise-token";

    static final String REPLIES = "promise-replies";
    static final int PARTITIONS = 4;
    static final String CALL = "X-Call";

    private static final Pattern JOB = Pattern.compile("\"tag\":\"(\\w+)\",\"outcome\":\"(\\w+)\",\"millis\":(\\d+)");

    private final Work work;

    public KafkaPaths(Work work) {
        this.work = work;
    }

    @KafkaListener(id = REQUEST_ID, topics = REQUEST_ID, concurrency = "2")
    @SendTo(REPLIES)
    @Idempotent
    public String requestId(ConsumerRecord<String, String> in) {
        return run(in);
    }

    /**
     * The token travels where a key would ({@code idempotency.kafka.header}); a record whose token was used is
     * recovered at once, without a reply, and a run's reply is its own answer (a token is never replayed).
     */
    @KafkaListener(id = TOKEN, topics = TOKEN, concurrency = "2")
    @SendTo(REPLIES)
    @Idempotent(strategy = Strategy.TOKEN, operation = TOKEN)
    public String token(ConsumerRecord<String, String> in) {
        return run(in);
    }

    @KafkaListener(id = LOCK, topics = LOCK, concurrency = "2")
    @Idempotent(strategy = Strategy.LOCK, key = "#record.key()")
    public void lock(ConsumerRecord<String, String> in) {
        run(in);
    }

    /** The topic of the listener that {@code guard} protects. */
    static String topic(Guard guard) {
        return switch (guard) {
            case REQUEST_ID -> REQUEST_ID;
            case TOKEN -> TOKEN;
            case LOCK -> LOCK;
        };
    }

    /** A record has no status: a returned 4xx is a kept result, a 5xx fails as an exception. */
    private String run(ConsumerRecord<String, String> in) {
        Job job = parse(in.value());
        String call = new String(in.headers().lastHeader(CALL).value(), StandardCharsets.UTF_8);
        Job asRecord = job.outcome().equals("5xx") ? new Job(job.tag(), "throw", job.millis()) : job;
        return work.now(call, in.key(), asRecord).getBody();
    }

    private static Job parse(String value) {
        Matcher job = JOB.matcher(value);
        if (!job.find()) {
            throw new IllegalArgumentException("not a job: " + value);
        }
        return new Job(job.group(1), job.group(2), Integer.parseInt(job.group(3)));
    }
}
