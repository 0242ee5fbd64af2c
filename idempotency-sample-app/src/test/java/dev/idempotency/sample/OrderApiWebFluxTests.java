package dev.idempotency.sample;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/** The order tests, on the same controllers run by WebFlux (profile webflux). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("webflux")
class OrderApiWebFluxTests extends OrderApiTests {}
