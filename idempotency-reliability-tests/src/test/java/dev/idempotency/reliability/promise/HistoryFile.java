package dev.idempotency.reliability.promise;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A history in a file of its own, one item a line, so that a shrunk failing history can be kept and replayed
 * ({@code KeptHistoryTests}). Lines starting with {@code #} are comments (what the history shows); the others are
 * {@code name: value}:
 *
 * <pre>
 * path: mvc-future            the entry path, as the properties name it
 * guard: TOKEN                REQUEST_ID, TOKEN or LOCK
 * one-thread: false           true: the Spring MVC application with one request thread
 * fault: DROP_REPLIES 238 378 kind, at (ms), for (ms); or: none
 * then: SIGSTOP 50 400        a second fault (optional): kind, ms after the first ended, for (ms)
 * work: ok 643                outcome and ms of key 0's work; then key 1's, key 2's (3 lines in all)
 * call: 0 269 WAITS 0         key, at (ms), ending, ends after (ms); one line a call, in order
 * </pre>
 */
record HistoryFile(String path, Guard guard, History history) {

    /** Where a property writes its shrunk failing history: under {@code target/}, never in the tree. */
    static final Path SHRUNK = Path.of("target", "shrunk-histories");

    static HistoryFile read(Path file) {
        String path = null;
        Guard guard = null;
        boolean oneThread = false;
        History.Fault fault = History.Fault.NONE;
        History.Fault then = History.Fault.NONE;
        List<History.Work> works = new ArrayList<>();
        List<History.Call> calls = new ArrayList<>();
        for (String line : lines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String name = line.substring(0, line.indexOf(':')).trim();
            String[] value = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
            switch (name) {
                case "path" -> path = value[0];
                case "guard" -> guard = Guard.valueOf(value[0]);
                case "one-thread" -> oneThread = Boolean.parseBoolean(value[0]);
                case "fault" -> fault = fault(value);
                case "then" -> then = fault(value);
                case "work" -> works.add(new History.Work(value[0], number(value[1])));
                case "call" ->
                    calls.add(new History.Call(
                            number(value[0]), number(value[1]), History.Ending.valueOf(value[2]), number(value[3])));
                default -> throw new IllegalArgumentException(file + ": unknown line " + line);
            }
        }
        if (path == null || guard == null || works.size() != Histories.KEYS || calls.isEmpty()) {
            throw new IllegalArgumentException(
                    file + ": needs a path, a guard, " + Histories.KEYS + " work lines and a call");
        }
        return new HistoryFile(
                path, guard, new History(List.copyOf(calls), List.copyOf(works), fault, then, oneThread));
    }

    private static History.Fault fault(String[] value) {
        return value[0].equals("none")
                ? History.Fault.NONE
                : new History.Fault(History.Fault.Kind.valueOf(value[0]), number(value[1]), number(value[2]));
    }

    private static String text(History.Fault fault) {
        return fault.span() == 0 ? "none" : fault.kind() + " " + fault.at() + " " + fault.span();
    }

    /** Writes this history, with {@code comment} (its violations) on top, to {@code file}. */
    void write(Path file, List<String> comment) {
        StringBuilder text = new StringBuilder();
        comment.forEach(
                line -> text.append("# ").append(line.replace('\n', ' ')).append('\n'));
        text.append("path: ").append(path).append('\n');
        text.append("guard: ").append(guard).append('\n');
        text.append("one-thread: ").append(history.oneThread()).append('\n');
        text.append("fault: ").append(text(history.fault())).append('\n');
        if (history.then().span() > 0) {
            text.append("then: ").append(text(history.then())).append('\n');
        }
        history.works()
                .forEach(work -> text.append("work: ")
                        .append(work.outcome())
                        .append(' ')
                        .append(work.millis())
                        .append('\n'));
        history.calls()
                .forEach(call -> text.append("call: ")
                        .append(call.key())
                        .append(' ')
                        .append(call.at())
                        .append(' ')
                        .append(call.ending())
                        .append(' ')
                        .append(call.endAfter())
                        .append('\n'));
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static int number(String text) {
        return Integer.parseInt(text);
    }
}
