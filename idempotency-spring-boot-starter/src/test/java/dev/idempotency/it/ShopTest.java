package dev.idempotency.it;

import dev.idempotency.testsupport.TestHttp;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the full-stack tests: the shop application (Spring MVC, Spring Security, the starter configured in
 * application.yml) on a real port, on the JVM's real Redis server.
 */
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class ShopTest {

    static final String ORDER = "{\"item\":\"book\",\"quantity\":1}";

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        TestRedis.register(registry, TestRedis.SERVER);
    }

    @LocalServerPort
    int port;

    TestHttp http;

    @BeforeEach
    void connect() {
        http = new TestHttp(port);
    }

    static String newKey() {
        return UUID.randomUUID().toString();
    }
}
