package dev.idempotency.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.InvalidTokenException;
import dev.idempotency.MissingIdempotencyKeyException;
import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.TokenAlreadyUsedException;
import dev.idempotency.token.TokenExecutor;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.listener.MessageListenerContainer;

/** {@code @Idempotent} record listeners on a real broker and a real Redis. */
class KafkaListenerTests extends KafkaTest {

    @Autowired
    OrderListeners orders;

    @Autowired
    QuoteListeners quotes;

    @Autowired
    SlowListeners slow;

    @Autowired
    TokenExecutor tokens;

    @Test
    void oneBusinessMessageSentTwiceWithTheSameKeyIsProcessedOnce() throws Exception {
        String order = unique("order");
        String key = unique("key");
        send("orders", key, order);
        send("orders", key, order);

        await("both records handled", () -> deliveries.succeeded("orders", order) == 2);
        assertThat(orders.executions().of(order)).isEqualTo(1);
    }

    @Test
    void aConsumerThatCrashedAfterTheWorkAndBeforeTheCommitDoesNotRepeatTheWork() throws Exception {
        String payment = unique("payment");
        send("uncommitted", unique("key"), payment);
        await("the payment processed", () -> orders.executions().of(payment) == 1);

        // The listener never acknowledges (see OrderListeners.payment), so nothing was committed: a restart of its
        // container is what a crash after the work and before the commit, and the restart after it, look like.
        MessageListenerContainer container = containers.getListenerContainer("uncommitted");
        container.stop();
        container.start();

        await("the record delivered again and handled", () -> deliveries.succeeded("uncommitted", payment) == 2);
        assertThat(orders.executions().of(payment)).isEqualTo(1);
    }

    @Test
    void aFailingRecordIsRedeliveredAndThenSucceedsOnce() throws Exception {
        String shipment = unique("shipment");
        String key = unique("key");
        send("flaky", key, shipment);

        await("the redelivered record handled", () -> deliveries.succeeded("flaky", shipment) == 1);
        assertThat(deliveries.failed("flaky", shipment, IllegalStateException.class))
                .isEqualTo(1);
        assertThat(orders.attempts().of(shipment))
                .as("the failure released the claim")
                .isEqualTo(2);
        assertThat(orders.executions().of(shipment)).isEqualTo(1);

        send("flaky", key, shipment);
        await("the duplicate handled", () -> deliveries.succeeded("flaky", shipment) == 2);
        assertThat(orders.attempts().of(shipment)).isEqualTo(2);
        assertThat(orders.executions().of(shipment)).isEqualTo(1);
    }

    @Test
    void theReplyToADuplicateCarriesTheStoredResult() throws Exception {
        String request = unique("quote-request");
        String key = unique("key");
        send("quotes", key, request);
        send("quotes", key, request);

        await("two replies", () -> quotes.repliesFor(request).size() == 2);
        assertThat(quotes.repliesFor(request).get(1))
                .isEqualTo(quotes.repliesFor(request).get(0));
        assertThat(quotes.executions().of(request)).isEqualTo(1);
    }

    @Test
    void aDuplicateWhileTheFirstIsStillProcessedIsRedeliveredUntilItCompletesNeverRecovered() throws Exception {
        String job = unique("job");
        send("slow", unique("key"), job);
        assertThat(slow.working().await(30, TimeUnit.SECONDS)).isTrue();

        // More failures than the 10 deliveries the default back-off allows before recovering a record.
        await(
                "the second consumer to meet the key in progress 12 times",
                () -> deliveries.failed("slow", job, RequestInProgressException.class) >= 12);
        slow.release().countDown();

        await("both consumers to handle the record", () -> deliveries.succeeded("slow", job) == 2);
        assertThat(slow.executions().of(job)).isEqualTo(1);
    }

    @Test
    void aSpelKeySeesTheRecordAndTheArguments() throws Exception {
        String event = unique("event");
        send("keyed", null, "customer-1", null, event);
        send("keyed", null, "customer-1", null, event);
        send("keyed", null, "customer-2", null, event);

        await("three records handled", () -> deliveries.succeeded("keyed", event) == 3);
        assertThat(orders.executions().of(event)).as("once per record key").isEqualTo(2);
    }

    @Test
    void recordsWithoutAKeyOrWithAReusedKeyAreNotRedelivered() throws Exception {
        String noKey = unique("order-without-key");
        String first = unique("order");
        String reused = unique("other-order");
        String last = unique("order");
        String key = unique("key");
        try (KafkaProducer<String, String> producer = producer(Map.of())) { // no key stamping
            producer.send(new ProducerRecord<>("orders", "customer-7", noKey)).get(10, TimeUnit.SECONDS);
        }
        send("orders", null, "customer-7", key, first);
        send("orders", null, "customer-7", key, reused);
        send("orders", null, "customer-7", unique("key"), last);

        // One partition, in order: once the last record is handled, the others will never come back.
        await("the last record handled", () -> deliveries.succeeded("orders", last) == 1);
        assertThat(deliveries.failed("orders", noKey, MissingIdempotencyKeyException.class))
                .isEqualTo(1);
        assertThat(deliveries.failed("orders", reused, PayloadMismatchException.class))
                .isEqualTo(1);
        assertThat(orders.executions().of(noKey)).isZero();
        assertThat(orders.executions().of(first)).isEqualTo(1);
        assertThat(orders.executions().of(reused)).isZero();
    }

    @Test
    void withMissingKeyProceedRecordsWithoutAKeyRunUnprotectedAndKeyedOnesOnce() throws Exception {
        String noKey = unique("order-without-key");
        String keyed = unique("order");
        String key = unique("key");
        try (KafkaProducer<String, String> producer = producer(Map.of())) { // no key stamping
            producer.send(new ProducerRecord<>("rollout", "customer-7", noKey)).get(10, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>("rollout", "customer-7", noKey)).get(10, TimeUnit.SECONDS);
        }
        send("rollout", null, "customer-7", key, keyed);
        send("rollout", null, "customer-7", key, keyed);

        await("every record handled", () -> deliveries.succeeded("rollout", keyed) == 2);
        assertThat(deliveries.succeeded("rollout", noKey)).isEqualTo(2);
        assertThat(orders.executions().of(noKey)).as("no key, no protection").isEqualTo(2);
        assertThat(orders.executions().of(keyed)).isEqualTo(1);
    }

    @Test
    void fingerprintFieldsPickTheMembersOfARecordValueThatCount() throws Exception {
        String key = unique("key");
        String first = "{\"amount\":5,\"currency\":\"EUR\",\"memo\":\"" + unique("rent") + "\"}";
        String otherMemo = first.replace("rent", "rent again");
        String otherAmount = first.replace("5", "6");
        // One partition, in order: the first record is the one that runs.
        send("transfers", null, "customer-7", key, first);
        send("transfers", null, "customer-7", key, otherMemo);
        send("transfers", null, "customer-7", key, otherAmount);

        await(
                "the last record handled",
                () -> deliveries.failed("transfers", otherAmount, PayloadMismatchException.class) == 1);
        assertThat(deliveries.succeeded("transfers", otherMemo))
                .as("a duplicate: only the memo differs")
                .isEqualTo(1);
        assertThat(orders.executions().of(first)).isEqualTo(1);
        assertThat(orders.executions().of(otherMemo)).isZero();
        assertThat(orders.executions().of(otherAmount)).isZero();
    }

    @Test
    void recordsWithAUsedOrUnknownTokenAreNotRedelivered() throws Exception {
        // A TOKEN listener finds its token where the others find their key: in the idempotency.kafka.header header.
        String token = tokens.issue("", "notices", Duration.ofMinutes(5)).token();
        String first = unique("notice");
        String reused = unique("notice");
        String unknown = unique("notice");
        String last = unique("notice");
        send("notices", 0, null, token, first);
        send("notices", 0, null, token, reused);
        send(
                "notices",
                0,
                null,
                tokens.issue("another-scope", "notices", Duration.ofMinutes(5)).token(),
                unknown);
        send(
                "notices",
                0,
                null,
                tokens.issue("", "notices", Duration.ofMinutes(5)).token(),
                last);

        // One partition, in order: once the last record is handled, the others will never come back.
        await("the last notice handled", () -> deliveries.succeeded("notices", last) == 1);
        assertThat(deliveries.failed("notices", reused, TokenAlreadyUsedException.class))
                .as("recovered at once, not after the usual 10 attempts")
                .isEqualTo(1);
        assertThat(deliveries.failed("notices", unknown, InvalidTokenException.class))
                .isEqualTo(1);
        assertThat(orders.executions().of(first)).isEqualTo(1);
        assertThat(orders.executions().of(reused)).isZero();
        assertThat(orders.executions().of(unknown)).isZero();
        assertThat(orders.executions().of(last)).isEqualTo(1);
    }
}
