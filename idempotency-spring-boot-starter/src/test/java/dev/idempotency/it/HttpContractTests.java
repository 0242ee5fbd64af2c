package dev.idempotency.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.stacks.Deployment;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every row of the HTTP contract, end to end, on both web stacks and both record stores (Redis, and the JDBC store on a
 * real PostgreSQL, and on MariaDB with Spring MVC): the same controllers, real server port, real Redis, Spring Security on.
 */
@ParameterizedClass
@MethodSource("dev.idempotency.stacks.Deployment#all")
public class HttpContractTests {

    private static final String ORDER = "{\"item\":\"book\",\"quantity\":1}";

    @Parameter
    Deployment deployment;

    ShopController shop;

    ReportService reports;

    TestHttp http;

    @BeforeEach
    void setUp() {
        shop = deployment.bean(ShopController.class);
        reports = deployment.bean(ReportService.class);
        http = new TestHttp(deployment.port());
        shop.release();
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    @Test
    void firstRequestRunsAndStoresItsResponseForTheConfiguredTtl() {
        String key = newKey();
        int before = shop.runs("orders");
        HttpResponse<String> response = http.post("/orders", ORDER, "Idempotency-Key", key);
        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.headers().firstValue("Location"))
                .hasValueSatisfying(l -> assertThat(l).startsWith("/orders/o-"));
        assertThat(response.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(shop.runs("orders")).isEqualTo(before + 1);
        long ttl = deployment.recordTtl("", "POST /orders", key, TimeUnit.SECONDS);
        assertThat(ttl)
                .as("idempotency.request-id.ttl: 2h from application.yml")
                .isBetween(7190L, 7200L);
    }

    @Test
    void duplicateGetsTheStoredResponseReplayedWithoutRunningTheMethod() {
        String key = newKey();
        HttpResponse<String> first = http.post("/orders", ORDER, "Idempotency-Key", key);
        int runs = shop.runs("orders");
        HttpResponse<String> replay = http.post("/orders", ORDER, "Idempotency-Key", key);
        assertThat(shop.runs("orders")).isEqualTo(runs);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        for (String header : List.of("Location", "ETag")) {
            assertThat(replay.headers().firstValue(header))
                    .isEqualTo(first.headers().firstValue(header));
        }
        assertThat(replay.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
    }

    @Test
    void structuredFieldKeyIsTheSameKeyAsThePlainOne() {
        String key = newKey();
        http.post("/orders", ORDER, "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/orders", ORDER, "Idempotency-Key", "\"" + key + "\"");
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    }

    @Test
    void plainReturnValueIsReplayedWithItsResponseStatus() {
        String key = newKey();
        HttpResponse<String> first = http.post("/carts/c1/items", ORDER, "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/carts/c1/items", ORDER, "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.body()).isEqualTo(first.body());
    }

    @Test
    void duplicateWhileTheFirstRunsGets409WithRetryAfter() throws Exception {
        String key = newKey();
        shop.hold();
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> http.post("/orders", ORDER, "Idempotency-Key", key));
        assertThat(shop.awaitEntered()).isTrue();
        long pttl = deployment.recordTtl("", "POST /orders", key, TimeUnit.SECONDS);
        assertThat(pttl)
                .as("an in-progress claim lives for the lease (20s), not the TTL")
                .isBetween(1L, 20L);
        HttpResponse<String> duplicate = http.post("/orders", ORDER, "Idempotency-Key", key);
        shop.release();
        assertThat(duplicate.statusCode()).isEqualTo(409);
        assertThat(duplicate.headers().firstValue("Retry-After")).isPresent();
        assertProblem(duplicate, 409);
        assertThat(first.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
    }

    @Test
    void duplicateWithAWaitPolicyWaitsAndGetsTheReplay() throws Exception {
        String key = newKey();
        shop.hold();
        CompletableFuture<HttpResponse<String>> first =
                CompletableFuture.supplyAsync(() -> http.post("/patient", "{}", "Idempotency-Key", key));
        assertThat(shop.awaitEntered()).isTrue();
        CompletableFuture<HttpResponse<String>> duplicate =
                CompletableFuture.supplyAsync(() -> http.post("/patient", "{}", "Idempotency-Key", key));
        assertThat(duplicate)
                .as("a waiting duplicate does not answer while the first runs")
                .isNotDone();
        shop.release();
        HttpResponse<String> replay = duplicate.get(20, TimeUnit.SECONDS);
        assertThat(replay.statusCode()).isEqualTo(200);
        assertThat(replay.body()).isEqualTo(first.get(20, TimeUnit.SECONDS).body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    }

    @Test
    void sameKeyWithADifferentPayloadGets422() {
        String key = newKey();
        http.post("/orders", ORDER, "Idempotency-Key", key);
        HttpResponse<String> other = http.post("/orders", "{\"item\":\"pen\",\"quantity\":2}", "Idempotency-Key", key);
        assertProblem(other, 422);
        HttpResponse<String> otherPath = http.post("/carts/c1/items", ORDER, "Idempotency-Key", key);
        http.post("/carts/c1/items", ORDER, "Idempotency-Key", key + "x");
        assertThat(otherPath.statusCode())
                .as("another operation is another record")
                .isEqualTo(201);
    }

    @Test
    void pathVariablesArePartOfThePayload() {
        String key = newKey();
        http.post("/carts/c1/items", ORDER, "Idempotency-Key", key);
        assertProblem(http.post("/carts/c2/items", ORDER, "Idempotency-Key", key), 422);
    }

    @Test
    void missingHeaderGets400() {
        assertProblem(http.post("/orders", ORDER), 400);
    }

    @Test
    void invalidKeysGet400BeforeRedisIsTouched() {
        java.util.Map<String, Long> statsBefore = TestRedis.SERVER.commandStats();
        long before = TestRedis.commandsRun(TestRedis.SERVER);
        for (String key : List.of("", "k".repeat(256), "with space", "\"unterminated\\\"")) {
            HttpResponse<String> response = http.post("/orders", ORDER, "Idempotency-Key", key);
            assertThat(response.statusCode()).as("key [%s]", key).isEqualTo(400);
            assertProblem(response, 400);
        }
        for (byte[] raw : List.of("caf\u00e9".getBytes(StandardCharsets.ISO_8859_1), new byte[] {'a', 1, 'b'})) {
            assertThat(http.postRawHeader("/orders", ORDER, "Idempotency-Key", raw))
                    .isEqualTo(400);
        }
        assertThat(TestRedis.commandsRun(TestRedis.SERVER))
                .as("commands before %s after %s", statsBefore, TestRedis.SERVER.commandStats())
                .isEqualTo(before);
    }

    @Test
    void failingMethodReleasesTheClaimSoARetryRunsAgain() {
        String key = newKey();
        int before = shop.runs("failing");
        assertThat(http.post("/failing", "{}", "Idempotency-Key", key).statusCode())
                .isEqualTo(500);
        assertThat(http.post("/failing", "{}", "Idempotency-Key", key).statusCode())
                .isEqualTo(500);
        assertThat(shop.runs("failing")).isEqualTo(before + 2);
    }

    @Test
    void serverErrorStatusIsNotStored() {
        String key = newKey();
        int before = shop.runs("unavailable");
        assertThat(http.post("/unavailable", "{}", "Idempotency-Key", key).statusCode())
                .isEqualTo(502);
        HttpResponse<String> retry = http.post("/unavailable", "{}", "Idempotency-Key", key);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(shop.runs("unavailable")).isEqualTo(before + 2);
    }

    @Test
    void twentySimultaneousDuplicatesRunTheMethodOnce() {
        String key = newKey();
        int before = shop.runs("orders");
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            responses.add(CompletableFuture.supplyAsync(() -> http.post("/orders", ORDER, "Idempotency-Key", key)));
        }
        List<Integer> statuses =
                responses.stream().map(f -> f.join().statusCode()).toList();
        assertThat(shop.runs("orders")).as("runs; statuses %s", statuses).isEqualTo(before + 1);
        assertThat(statuses).isSubsetOf(201, 409).contains(201);
    }

    @Test
    void keysAreScopedByUser() {
        String key = newKey();
        int before = shop.runs("orders");
        HttpResponse<String> alice =
                http.post("/orders", ORDER, concat("Idempotency-Key", key, TestHttp.basic("alice")));
        HttpResponse<String> bob = http.post("/orders", ORDER, concat("Idempotency-Key", key, TestHttp.basic("bob")));
        assertThat(alice.statusCode()).isEqualTo(201);
        assertThat(bob.statusCode()).isEqualTo(201);
        assertThat(bob.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(shop.runs("orders")).isEqualTo(before + 2);
        assertThat(deployment.recordTtl("user:alice", "POST /orders", key, TimeUnit.SECONDS))
                .as("alice's record")
                .isPositive();
        HttpResponse<String> aliceAgain =
                http.post("/orders", ORDER, concat("Idempotency-Key", key, TestHttp.basic("alice")));
        assertThat(aliceAgain.body()).isEqualTo(alice.body());
    }

    @Test
    void keyFromTheBodyWithAPolicyTtl() {
        String paymentId = newKey();
        String body = "{\"paymentId\":\"" + paymentId + "\",\"amountCents\":500}";
        int before = shop.runs("payments");
        assertThat(http.post("/payments", body).statusCode()).isEqualTo(201);
        HttpResponse<String> replay = http.post("/payments", body);
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(shop.runs("payments")).isEqualTo(before + 1);
        long ttl = deployment.recordTtl("", "POST /payments", paymentId, TimeUnit.HOURS);
        assertThat(ttl).as("policy payments: ttl 48h").isBetween(47L, 48L);
    }

    @Test
    void beanMethodOutsideHttpReplaysItsResultAsTheGenericReturnType() {
        String id = newKey();
        List<ReportService.Report> first = reports.generate(id);
        List<ReportService.Report> second = reports.generate(id);
        assertThat(second).isEqualTo(first).first().isInstanceOf(ReportService.Report.class);
        long ttl = deployment.recordTtl(
                "", "dev.idempotency.it.ReportService#generate(java.lang.String)", "report-" + id, TimeUnit.MINUTES);
        assertThat(ttl).as("ttl = \"${shop.report-ttl}\" resolved to 90m").isBetween(89L, 90L);
        HttpResponse<String> viaHttp = http.post("/reports/" + id, "{}");
        assertThat(viaHttp.statusCode()).isEqualTo(200);
        assertThat(viaHttp.body()).contains("\"run\":" + first.get(0).run());
    }

    @Test
    void tokenEndpointIssuesATokenThatWorksOnce() {
        HttpResponse<String> issued = http.post("/idempotency/tokens?operation=POST%20/feedback", "");
        assertThat(issued.statusCode()).isEqualTo(201);
        assertThat(issued.body()).contains("\"header\":\"Idempotency-Token\"").contains("\"expiresInSeconds\":600");
        String token = issued.body().replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
        assertThat(deployment.tokenState("", "POST /feedback", token)).isEqualTo("V");
        assertThat(http.post("/feedback", "{\"text\":\"great\"}", "Idempotency-Token", token)
                        .statusCode())
                .isEqualTo(201);
        assertThat(deployment.tokenState("", "POST /feedback", token)).isEqualTo("U");
        assertProblem(http.post("/feedback", "{\"text\":\"great\"}", "Idempotency-Token", token), 409);
    }

    @Test
    void missingUnknownAndForeignTokensGet400() {
        assertProblem(http.post("/feedback", "{}"), 400);
        assertProblem(http.post("/feedback", "{}", "Idempotency-Token", "A".repeat(32)), 400);
        String alices = token(TestHttp.basic("alice"));
        assertProblem(http.post("/feedback", "{}", concat("Idempotency-Token", alices, TestHttp.basic("bob"))), 400);
        assertThat(http.post("/feedback", "{}", concat("Idempotency-Token", alices, TestHttp.basic("alice")))
                        .statusCode())
                .isEqualTo(201);
    }

    @Test
    void failedSubmitRestoresTheToken() {
        String token = token();
        assertThat(http.post("/feedback", "{\"fail\":true}", "Idempotency-Token", token)
                        .statusCode())
                .isEqualTo(500);
        assertThat(http.post("/feedback", "{}", "Idempotency-Token", token).statusCode())
                .isEqualTo(201);
    }

    @Test
    void busyLockGets409WithRetryAfter() throws Exception {
        String sku = newKey();
        shop.hold();
        CompletableFuture<HttpResponse<String>> holder =
                CompletableFuture.supplyAsync(() -> http.post("/inventory/" + sku + "/reserve", ""));
        assertThat(shop.awaitEntered()).isTrue();
        HttpResponse<String> busy = http.post("/inventory/" + sku + "/reserve", "");
        shop.release();
        assertProblem(busy, 409);
        assertThat(busy.headers().firstValue("Retry-After")).isPresent();
        assertThat(holder.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(http.post("/inventory/" + sku + "/reserve", "").statusCode()).isEqualTo(200);
    }

    private String token(String... headers) {
        HttpResponse<String> issued = http.post("/idempotency/tokens?operation=POST%20/feedback", "", headers);
        return issued.body().replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
    }

    public static void assertProblem(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body())
                .contains("\"status\":" + status)
                .contains("\"type\":\"urn:idempotency:problem:")
                .contains("\"title\":")
                .contains("\"detail\":");
    }

    static String[] concat(String name, String value, String... more) {
        String[] all = new String[more.length + 2];
        all[0] = name;
        all[1] = value;
        System.arraycopy(more, 0, all, 2, more.length);
        return all;
    }
}
