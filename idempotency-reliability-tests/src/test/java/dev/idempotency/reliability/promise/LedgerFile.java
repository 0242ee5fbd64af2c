package dev.idempotency.reliability.promise;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link Ledger} of an application JVM that a history kills, kept outside it: one line a start, an end or a loss
 * report, tab-separated, appended as it happens and read by the checker's JVM.
 *
 * <p>Why it survives {@code SIGKILL}: each line is one {@code write(2)} of an unbuffered {@link FileOutputStream}
 * opened to append; once it returns, the line is in the kernel's page cache, which the death of the writing process
 * cannot take back (only a crash of the machine could: no {@code fsync}, none is simulated). A start is written before
 * the work runs, so a kill during the work leaves a start without an end. A kill in the middle of a {@code write} could
 * at most leave an unfinished last line, which the reader skips.
 *
 * <p>Why the times compare with the checker's: they are {@link System#nanoTime()}, which HotSpot on Linux reads from
 * {@code clock_gettime(CLOCK_MONOTONIC)}, one clock for every process of the machine (since boot, not per process).
 * {@link ChildApp} checks that on every start of the application: the {@code nanoTime} it answers {@code /ping} with
 * must fall between the checker's own readings before and after the call.
 */
public final class LedgerFile {

    private final OutputStream out;

    /** Appends to {@code file}, created if need be. */
    public LedgerFile(Path file) {
        try {
            this.out = new FileOutputStream(file.toFile(), true);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    void started(Ledger.Started started) {
        append("S", started.id(), started.call(), started.key(), started.fence(), started.start());
    }

    void ended(Ledger.Execution run) {
        append("E", run.id(), run.end(), run.outcome(), run.leaseHeld(), run.heldUntil(), run.answer());
    }

    void lossReported(long at) {
        append("L", at);
    }

    private synchronized void append(Object... fields) {
        StringBuilder line = new StringBuilder();
        for (Object field : fields) {
            line.append(line.isEmpty() ? "" : "\t").append(field);
        }
        try {
            out.write(line.append('\n').toString().getBytes(StandardCharsets.UTF_8)); // one write(2), unbuffered
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** What one application JVM's file says so far: its ended executions, the ones not ended, its loss reports. */
    record Read(List<Ledger.Execution> ended, List<Ledger.Started> notEnded, List<Long> lossReports) {}

    /** Reads {@code file} as it is now (none yet: nothing ran). */
    static Read read(Path file) {
        String text;
        try {
            text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        Map<Long, Ledger.Started> notEnded = new LinkedHashMap<>();
        List<Ledger.Execution> ended = new ArrayList<>();
        List<Long> lossReports = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length - 1; i++) { // the last piece: empty, or a line the kill cut short
            String[] f = lines[i].split("\t", -1);
            switch (f[0]) {
                case "S" -> {
                    long id = Long.parseLong(f[1]);
                    notEnded.put(
                            id, new Ledger.Started(id, f[2], f[3], Long.parseLong(f[4]), Long.parseLong(f[5]), null));
                }
                case "E" -> {
                    Ledger.Started s = notEnded.remove(Long.parseLong(f[1]));
                    if (s == null) {
                        throw new IllegalStateException(file + ": an end without its start: " + lines[i]);
                    }
                    ended.add(new Ledger.Execution(
                            s.id(),
                            s.call(),
                            s.key(),
                            s.fence(),
                            s.start(),
                            Long.parseLong(f[2]),
                            f[3],
                            Boolean.parseBoolean(f[4]),
                            Long.parseLong(f[5]),
                            f[6]));
                }
                case "L" -> lossReports.add(Long.parseLong(f[1]));
                default -> throw new IllegalStateException(file + ": unknown line " + lines[i]);
            }
        }
        return new Read(ended, List.copyOf(notEnded.values()), lossReports);
    }
}
