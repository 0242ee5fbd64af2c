package dev.idempotency.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.idempotency.IdempotencyStoreUnavailableException;
import dev.idempotency.lock.LockHandle;
import dev.idempotency.testsupport.Race;
import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.testsupport.Topologies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Scenarios 15b, 15c and 17c: Redis users with only the permissions the guide lists (docs/guide/topologies.md), and users that lack the
 * Pub/Sub channel permission.
 */
@ReliabilityTest
class AclTests {

    private static final Duration LEASE = Duration.ofSeconds(10);

    /** The guide's minimal rules without the channel permission. */
    private static final String NO_CHANNELS = Topologies.ACL_RULES.replace(" &idempotency:*", "");

    @Test
    @Scenario(
            id = "17c",
            title = "Application logged in as a Redis user with exactly the guide's minimal ACL (keys and channels"
                    + " under idempotency:, the commands listed): 100 order keys sent twice, 100 tokens, 100 lock"
                    + " reservations, and a lock wait woken by a release message",
            expected = "everything works; the wait ends with the release message, not a refusal")
    void theWholeContractWithTheMinimalAcl() throws Exception {
        try (App app = App.start(
                        "127.0.0.1", 0, with(TlsTests.properties(Topologies.ACL), "idempotency.lock.wait=20s"));
                CoreStack holder =
                        CoreStack.on(Topologies.ACL.newConnectionFactory(), "idempotency:", 0, Duration.ZERO)) {
            MixedWorkload workload = MixedWorkload.run(app, "acl-" + UUID.randomUUID(), 100);
            String sku = "acl-wait-" + UUID.randomUUID();
            LockHandle held = holder.locks.acquire(sku, LEASE, Duration.ZERO);
            CompletableFuture<Http.Response> waiting =
                    CompletableFuture.supplyAsync(() -> app.http().post("/stock/" + sku, "{}"));
            boolean subscribed = Race.await(Duration.ofSeconds(10), 10, () -> releaseSubscribers(holder) > 0);
            held.close();
            Http.Response afterWait = waiting.get(30, TimeUnit.SECONDS);
            ReliabilityReport.measured(
                    "17c",
                    workload.summary() + "; a reservation that waited for a held lock: " + afterWait.status()
                            + " (subscribed to release messages: " + subscribed + ")");
            assertThat(workload.asPromised()).as(workload.summary()).isTrue();
            assertThat(subscribed)
                    .as("the application subscribed with the minimal ACL")
                    .isTrue();
            assertThat(afterWait.status()).isEqualTo(200);
        }
    }

    @Test
    @Scenario(
            id = "15b",
            title = "Redis user without the Pub/Sub channel permission: 200 lock acquire/release cycles (the release"
                    + " script's PUBLISH is refused by ACL)",
            expected = "every release succeeds: the refused PUBLISH never fails a release whose delete happened")
    void releasesSucceedWhenPublishIsRefused() throws Exception {
        try (RedisServer redis = RedisServer.builder()
                        .aclUser("nochannels", "pw", NO_CHANNELS.replace(">" + Topologies.ACL_PASSWORD, ">pw"))
                        .start();
                CoreStack app = CoreStack.on(redis.newConnectionFactory(), "idempotency:", 0, Duration.ZERO)) {
            List<String> failures = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                try (LockHandle lock = app.locks.acquire("sku-" + (i % 10), LEASE, Duration.ZERO)) {
                    lock.fencingToken();
                } catch (RuntimeException ex) {
                    failures.add(ex.toString());
                }
            }
            boolean freed;
            try (RedisAdmin admin = new RedisAdmin(redis.host(), redis.port())) {
                freed = !admin.exists(app.keys.lock("sku-0")); // the restricted user may not ask
            }
            ReliabilityReport.measured(
                    "15b",
                    "200 cycles: failed releases " + failures.size() + " " + failures + "; lock freed: " + freed);
            assertThat(failures).as("failed releases").isEmpty();
            assertThat(freed).isTrue();
        }
    }

    @Test
    @Scenario(
            id = "15c",
            title = "Redis user without the Pub/Sub channel permission: a caller waits for a held lock, so the"
                    + " release subscription is refused (NOPERM); the same over HTTP with on-store-failure proceed",
            expected = "the store-failure contract: IdempotencyStoreUnavailableException (503) at once rather than a"
                    + " 500 or a wait; under proceed the method runs unprotected; the next wait tries the"
                    + " subscription again")
    void refusedSubscriptionFollowsTheStoreFailureContract() throws Exception {
        try (RedisServer redis = RedisServer.builder()
                        .aclUser("nochannels", "pw", NO_CHANNELS.replace(">" + Topologies.ACL_PASSWORD, ">pw"))
                        .start();
                CoreStack holder = CoreStack.on(redis.newConnectionFactory(), "idempotency:", 0, Duration.ZERO);
                CoreStack waiter = CoreStack.on(redis.newConnectionFactory(), "idempotency:", 0, Duration.ZERO)) {
            String sku = "sku-" + UUID.randomUUID();
            try (LockHandle held = holder.locks.acquire(sku, LEASE, Duration.ZERO)) {
                Throwable first = catchThrowable(() -> waiter.locks.acquire(sku, LEASE, Duration.ofSeconds(5)));
                Throwable second = catchThrowable(() -> waiter.locks.acquire(sku, LEASE, Duration.ofSeconds(5)));
                Map<String, String> userProperties = redis.springProperties();
                try (App app = App.start(
                        "127.0.0.1",
                        0,
                        with(
                                userProperties.entrySet().stream()
                                        .map(entry -> entry.getKey() + "=" + entry.getValue())
                                        .toArray(String[]::new),
                                "idempotency.lock.wait=5s",
                                "idempotency.on-store-failure=proceed"))) {
                    Http.Response proceeded = app.http().post("/stock/" + sku, "{}");
                    ReliabilityReport.measured(
                            "15c",
                            "waiting caller got " + name(first) + ", a second wait " + name(second)
                                    + "; over HTTP with proceed: " + proceeded.status() + ", executions "
                                    + app.endpoints().executions("stock", sku));
                    assertThat(first).isInstanceOf(IdempotencyStoreUnavailableException.class);
                    assertThat(second).isInstanceOf(IdempotencyStoreUnavailableException.class);
                    assertThat(proceeded.status())
                            .as("run unprotected under proceed")
                            .isEqualTo(200);
                    assertThat(app.endpoints().executions("stock", sku)).isEqualTo(1);
                }
                held.fencingToken();
            }
        }
    }

    private static long releaseSubscribers(CoreStack stack) {
        String channel = stack.keys.lock("") + ":released";
        try (RedisAdmin admin = new RedisAdmin(
                Topologies.ACL.springProperties().get("spring.data.redis.host"),
                Integer.parseInt(Topologies.ACL.springProperties().get("spring.data.redis.port")))) {
            return admin.call(commands -> commands.pubsubNumsub(channel)).getOrDefault(channel, 0L);
        }
    }

    private static String[] with(String[] properties, String... more) {
        String[] all = new String[properties.length + more.length];
        System.arraycopy(properties, 0, all, 0, properties.length);
        System.arraycopy(more, 0, all, properties.length, more.length);
        return all;
    }

    private static String name(Throwable thrown) {
        return thrown == null ? "nothing" : thrown.getClass().getSimpleName();
    }
}
