package dev.idempotency.sample;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/** The shop's API tests, on the same controllers run by WebFlux (profile webflux): the same contract, unchanged. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("webflux")
class ShopApiWebFluxTests extends ShopApiTests {}
