package dev.idempotency.reliability;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Prints the rows of this run and writes the report under {@code target/reliability/} once all tests of the run have ended. */
public final class ReportSessionListener implements LauncherSessionListener {

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        if (ReliabilityReport.hasRows()) {
            ReliabilityReport.writeFile();
            System.out.println(ReliabilityReport.printedTable());
        }
    }
}
