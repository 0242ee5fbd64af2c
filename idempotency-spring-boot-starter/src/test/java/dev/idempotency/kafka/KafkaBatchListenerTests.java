package dev.idempotency.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.RequestInProgressException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A batch listener dedups each record with {@link KafkaIdempotency#processEach}. */
class KafkaBatchListenerTests extends KafkaTest {

    @Autowired
    BatchShipments batch;

    @Test
    void eachRecordOfABatchIsProcessedOnceAlsoWhenOneFailsAndTheRestIsRedelivered() throws Exception {
        List<String> shipments = shipments(10);
        batch.failures.script(
                shipments.get(5),
                attempt -> attempt == 1 ? new IllegalStateException("The label printer jammed") : null);
        // One partition (one record key), so the batch keeps its order: shipments 3 and 7 are sent twice.
        for (int i = 0; i < 10; i++) {
            send(shipments.get(i));
            if (i == 3 || i == 7) {
                send(shipments.get(i));
            }
        }

        awaitCommitted("batch-shipments", BatchShipments.TOPIC);
        assertThat(shipments)
                .allSatisfy(shipment ->
                        assertThat(batch.shipped.of(shipment)).as(shipment).isEqualTo(1));
        assertThat(batch.failures.attempts(shipments.get(5)))
                .as("failed once, then ran again")
                .isEqualTo(2);
    }

    @Test
    void aRecordThatFailedOnceIsNotSkippedForThenBeingInProgressMoreOftenThanTheErrorHandlerRetries() throws Exception {
        List<String> shipments = shipments(3);
        String waiting = shipments.get(1);
        // One real failure, then more deliveries in progress than the 10 the default back-off allows in all.
        batch.failures.script(waiting, attempt -> {
            if (attempt == 1) {
                return new IllegalStateException("The label printer jammed");
            }
            return attempt <= 13
                    ? new RequestInProgressException("Another consumer is shipping it", Duration.ofSeconds(1))
                    : null;
        });
        for (String shipment : shipments) {
            send(shipment);
        }

        awaitCommitted("batch-shipments", BatchShipments.TOPIC);
        assertThat(batch.failures.attempts(waiting)).isEqualTo(14);
        assertThat(shipments)
                .allSatisfy(shipment ->
                        assertThat(batch.shipped.of(shipment)).as(shipment).isEqualTo(1));
    }

    private static List<String> shipments(int count) {
        List<String> shipments = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            shipments.add(unique("shipment-" + i));
        }
        return shipments;
    }

    private void send(String shipment) throws Exception {
        send(BatchShipments.TOPIC, null, "warehouse-1", "key-" + shipment, shipment);
    }
}
