package dev.idempotency.notoken;

import static org.assertj.core.api.Assertions.assertThat;

import dev.idempotency.testsupport.RedisServer;
import dev.idempotency.testsupport.TestHttp;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The token endpoint exists only where tokens are used, or where it is asked for. */
class TokenEndpointTests {

    private static final RedisServer REDIS = RedisServer.start();

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.host", REDIS::host);
        registry.add("spring.data.redis.port", REDIS::port);
    }

    @Nested
    @SpringBootTest(classes = NoTokenApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
    class WithoutTokenOperations {

        @LocalServerPort
        int port;

        @Test
        void noTokenEndpoint() {
            TestHttp http = new TestHttp(port);
            assertThat(http.post("/idempotency/tokens", "").statusCode()).isEqualTo(404);
            assertThat(http.post("/orders", "{}", "Idempotency-Key", "k-1").statusCode())
                    .isEqualTo(200);
        }
    }

    @Nested
    @SpringBootTest(
            classes = NoTokenApplication.class,
            webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
            properties = "idempotency.token.endpoint.enabled=true")
    class AskedForExplicitly {

        @LocalServerPort
        int port;

        /** Mapped, but with no {@code TOKEN} operation there is nothing to issue a token for. */
        @Test
        void tokenEndpointIsMappedAndNamesTheOperationsItKnows() {
            HttpResponse<String> refused = new TestHttp(port).post("/idempotency/tokens?operation=feedback", "");
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body())
                    .contains("urn:idempotency:problem:unknown-operation", "its TOKEN operations are []");
        }
    }
}
