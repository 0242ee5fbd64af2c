package dev.idempotency.testsupport;

import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A test class whose every test runs on each {@link Database}, one instance for all of them: {@link #open} sets it up
 * on each database in turn (JUnit injects no constructor of such a class), and an
 * {@code @AfterParameterizedClassInvocation} method closes what it opened.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass
@EnumSource(Database.class)
public abstract class OnEveryDatabase {

    /** The database of this run of the class. */
    @Parameter
    protected Database tested;

    @BeforeParameterizedClassInvocation(injectArguments = false)
    void openOnTheDatabase() {
        open(tested);
    }

    /** Sets the test class up on {@code database}, before its tests run there. */
    protected abstract void open(Database database);
}
