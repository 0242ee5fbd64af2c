package dev.idempotency.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Imports the starter's auto-configuration into a test slice, such as {@code @WebMvcTest} or {@code @WebFluxTest},
 * which leave it out: the controllers under test are then protected as in the application, with the AOP advisor, the
 * web binding, problem details and metrics. Pick the store as usual, {@code idempotency.store=in-memory} for a slice
 * without Redis:
 *
 * <pre>{@code
 * @WebMvcTest(OrderController.class)
 * @AutoConfigureIdempotency
 * @TestPropertySource(properties = "idempotency.store=in-memory")
 * class OrderControllerTests { ... }
 * }</pre>
 *
 * The auto-configurations are listed in {@code META-INF/spring/dev.idempotency.autoconfigure.AutoConfigureIdempotency.imports}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureIdempotency {}
