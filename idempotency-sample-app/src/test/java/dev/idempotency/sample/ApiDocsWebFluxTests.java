package dev.idempotency.sample;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The same OpenAPI document and Swagger UI on the webflux profile (springdoc's WebFlux module): every
 * {@code @Idempotent} operation and the token endpoint documented as on Spring MVC.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("webflux")
class ApiDocsWebFluxTests extends ApiDocsTests {

    @Override
    String swaggerUiPage() {
        return "/webjars/swagger-ui/index.html";
    }
}
