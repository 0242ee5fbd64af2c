package dev.idempotency.reliability;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.Arrays;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Collects what some loggers write at WARN and above while the capture is open. */
final class LogCapture implements AutoCloseable {

    private final List<Logger> loggers;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    LogCapture(Class<?>... sources) {
        this(Arrays.stream(sources).map(Class::getName).toArray(String[]::new));
    }

    /** By logger name, for the library's package-private classes. */
    LogCapture(String... names) {
        appender.start();
        loggers = Arrays.stream(names)
                .map(name -> (Logger) LoggerFactory.getLogger(name))
                .toList();
        loggers.forEach(logger -> logger.addAppender(appender));
    }

    /** The WARN and ERROR messages so far, formatted. */
    List<String> warnings() {
        synchronized (appender.list) {
            return appender.list.stream()
                    .filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(event -> event.getLevel() + " " + event.getFormattedMessage())
                    .toList();
        }
    }

    @Override
    public void close() {
        loggers.forEach(logger -> logger.detachAppender(appender));
        appender.stop();
    }
}
