package dev.idempotency.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.idempotency.it.TestRedis;
import dev.idempotency.key.RedisKeys;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code idempotency.scope: tenant} with real signed JWTs, on both web stacks: two tenants sending the same client key
 * never share a record; two users of one tenant do.
 */
@ParameterizedClass
@EnumSource(
        value = WebApplicationType.class,
        names = {"SERVLET", "REACTIVE"})
class TenantScopeTests {

    @Parameter
    WebApplicationType stack;

    private static final java.util.Map<WebApplicationType, ConfigurableApplicationContext> APPS =
            new java.util.EnumMap<>(WebApplicationType.class);

    @BeforeAll
    static void noAppsYet() {
        APPS.clear();
    }

    @AfterAll
    static void closeApps() {
        APPS.values().forEach(ConfigurableApplicationContext::close);
    }

    private ConfigurableApplicationContext app() {
        return APPS.computeIfAbsent(
                stack,
                type -> new SpringApplicationBuilder(TenantApplication.class)
                        .web(type)
                        .properties(
                                "server.port=0",
                                "spring.data.redis.host=" + TestRedis.SERVER.host(),
                                "spring.data.redis.port=" + TestRedis.SERVER.port(),
                                "idempotency.scope=tenant")
                        .run());
    }

    private HttpResponse<String> order(String key, String user, String tenant) throws Exception {
        TestHttp http = new TestHttp(app().getEnvironment().getRequiredProperty("local.server.port", Integer.class));
        return http.post("/tenant/orders", "", "Idempotency-Key", key, "Authorization", "Bearer " + jwt(user, tenant));
    }

    private static String jwt(String user, String tenant) throws Exception {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .subject(user)
                .expirationTime(Date.from(Instant.now().plusSeconds(300)));
        if (tenant != null) {
            claims.claim("tenant_id", tenant);
        }
        SignedJWT token = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build());
        token.sign(new MACSigner(TenantApplication.KEY.getEncoded()));
        return token.serialize();
    }

    @Test
    void twoTenantsWithTheSameKeyNeverShareARecord() throws Exception {
        String key = UUID.randomUUID().toString();
        TenantApplication.Orders orders = app().getBean(TenantApplication.Orders.class);
        int before = orders.runs();
        HttpResponse<String> acme = order(key, "alice", "acme");
        HttpResponse<String> globex = order(key, "alice", "globex");
        assertThat(acme.statusCode()).isEqualTo(200);
        assertThat(globex.statusCode()).isEqualTo(200);
        assertThat(globex.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(orders.runs()).isEqualTo(before + 2);
        RedisKeys keys = app().getBean(RedisKeys.class);
        StringRedisTemplate redis = app().getBean(StringRedisTemplate.class);
        assertThat(redis.hasKey(keys.requestId("tenant:acme", "POST /tenant/orders", key)))
                .isTrue();
        assertThat(redis.hasKey(keys.requestId("tenant:globex", "POST /tenant/orders", key)))
                .isTrue();
    }

    @Test
    void twoUsersOfOneTenantShareTheRecord() throws Exception {
        String key = UUID.randomUUID().toString();
        TenantApplication.Orders orders = app().getBean(TenantApplication.Orders.class);
        int before = orders.runs();
        HttpResponse<String> alice = order(key, "alice", "acme");
        HttpResponse<String> bob = order(key, "bob", "acme");
        assertThat(bob.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(bob.body()).isEqualTo(alice.body());
        assertThat(orders.runs()).isEqualTo(before + 1);
    }

    @Test
    void anAuthenticatedCallerWithoutATenantIsRefused() throws Exception {
        TenantApplication.Orders orders = app().getBean(TenantApplication.Orders.class);
        int before = orders.runs();
        HttpResponse<String> response = order(UUID.randomUUID().toString(), "carol", null);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
        assertThat(response.body())
                .contains("urn:idempotency:problem:tenant-missing")
                .contains("tenant_id");
        assertThat(orders.runs()).as("the method did not run").isEqualTo(before);
    }
}
