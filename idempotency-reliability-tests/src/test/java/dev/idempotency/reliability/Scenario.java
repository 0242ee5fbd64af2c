package dev.idempotency.reliability;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the row of {@code docs/RELIABILITY.md} a test produces. The test reports its figures with
 * {@link ReliabilityReport#measured}; {@link ScenarioExtension} adds whether it passed and how to run it alone. Public
 * because JUnit reads the repeated form through a proxy.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(Scenario.List.class)
public @interface Scenario {

    /** Row key, e.g. {@code "4a"}: the scenario number of issue 6, then a letter per variant. */
    String id();

    /** What is done to the system. */
    String title();

    /** What the library promises under it. */
    String expected();

    /** Several rows from one test. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    public @interface List {
        Scenario[] value();
    }
}
