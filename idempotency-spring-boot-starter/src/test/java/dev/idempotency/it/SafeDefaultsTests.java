package dev.idempotency.it;

import static dev.idempotency.it.HttpContractTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.key.RedisKeys;
import dev.idempotency.testsupport.TestHttp;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.TestPropertySource;

/** Defaults that protect users: a read-only endpoint, anonymous callers refused on request, LOCK after the work. */
@TestPropertySource(
        properties = {"management.endpoints.web.exposure.include=idempotency", "idempotency.anonymous=reject"})
class SafeDefaultsTests extends ShopTest {

    @Autowired
    RedisKeys keys;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    MeterRegistry meters;

    @Test
    void actuatorDeleteIsRefusedUnlessAccessIsUnrestricted() {
        String key = newKey();
        assertThat(http.post("/orders", ORDER, "Idempotency-Key", key, "Authorization", basicAlice())
                        .statusCode())
                .isEqualTo(201);
        String recordKey = keys.requestId("user:alice", "POST /orders", key);
        HttpResponse<String> delete = http.delete("/actuator/idempotency?operation="
                + URLEncoder.encode("POST /orders", StandardCharsets.UTF_8) + "&key=" + key + "&scope=alice");
        assertThat(delete.statusCode()).as("DELETE on a read-only endpoint").isIn(404, 405);
        assertThat(redis.hasKey(recordKey)).as("the record is still there").isTrue();
        assertThat(http.get("/actuator/idempotency").statusCode())
                .as("GET stays open")
                .isEqualTo(200);
    }

    @Test
    void anonymousCallersAreRefusedWhenConfigured() {
        HttpResponse<String> anonymous = http.post("/orders", ORDER, "Idempotency-Key", newKey());
        assertProblem(anonymous, 400);
        assertThat(anonymous.body()).contains("urn:idempotency:problem:anonymous-not-allowed");
        assertThat(http.post("/orders", ORDER, "Idempotency-Key", newKey(), "Authorization", basicAlice())
                        .statusCode())
                .isEqualTo(201);
    }

    @Test
    void lockLostWhileTheWorkRanStillReturnsTheResultAndIsCounted() {
        double lostBefore = lost();
        HttpResponse<String> response = http.post("/lost/" + newKey(), "{}", "Authorization", basicAlice());
        assertThat(response.statusCode())
                .as("the work ran: its result is returned")
                .isEqualTo(200);
        assertThat(response.body()).contains("\"reserved\":true");
        assertThat(lost()).as("idempotency.leases.lost{strategy=LOCK}").isEqualTo(lostBefore + 1);
    }

    private double lost() {
        var counter =
                meters.find("idempotency.leases.lost").tag("strategy", "lock").counter();
        return counter == null ? 0 : counter.count();
    }

    private static String basicAlice() {
        return TestHttp.basic("alice")[1];
    }
}
