package dev.idempotency.reliability;

import dev.idempotency.testsupport.RealRedis;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/** A class of reliability scenarios: real Redis servers as parameters, and a report row per {@link Scenario}. */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@RealRedis
@ExtendWith(ScenarioExtension.class)
@interface ReliabilityTest {}
