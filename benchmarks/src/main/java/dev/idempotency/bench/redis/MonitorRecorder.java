package dev.idempotency.bench.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Records the commands a Redis server executes through {@code MONITOR}. Redis marks commands a Lua script runs with
 * {@code [0 lua]}; every other line is a command a client sent, i.e. one round trip (the application does not
 * pipeline).
 */
final class MonitorRecorder implements AutoCloseable {

    private final Socket socket;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private volatile String marker = "";
    private volatile CountDownLatch markerSeen = new CountDownLatch(1);

    MonitorRecorder(String host, int port) throws IOException, InterruptedException {
        socket = new Socket(host, port);
        RespConnection.send(socket.getOutputStream(), "MONITOR");
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        CountDownLatch ready = new CountDownLatch(1);
        Thread reader = new Thread(() -> read(in, ready), "redis-monitor");
        reader.setDaemon(true);
        reader.start();
        if (!ready.await(5, TimeUnit.SECONDS)) {
            throw new IOException("MONITOR did not start");
        }
    }

    private void read(BufferedReader in, CountDownLatch ready) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("+OK")) {
                    ready.countDown();
                } else if (!marker.isEmpty() && line.contains(marker)) {
                    markerSeen.countDown();
                } else {
                    lines.add(line);
                }
            }
        } catch (IOException closed) {
            // closed by close()
        }
    }

    /**
     * Waits until everything executed before this call has been recorded: sends {@code ECHO marker} on {@code probe}
     * and waits for the monitor to see it.
     */
    void sync(RespConnection probe, String name) throws IOException, InterruptedException {
        markerSeen = new CountDownLatch(1);
        marker = "probe-sync-" + name + "-" + System.nanoTime();
        probe.call("ECHO", marker);
        if (!markerSeen.await(10, TimeUnit.SECONDS)) {
            throw new IOException("MONITOR did not show the sync marker");
        }
    }

    /** Forgets everything recorded so far. */
    void clear() {
        lines.clear();
    }

    /** Lowercase command names sent by clients other than {@code ignoredPort} ({@code insideScripts} false), or run by scripts. */
    List<String> commands(boolean insideScripts, int ignoredPort) {
        List<String> names = new ArrayList<>();
        for (String line : lines) {
            int open = line.indexOf('[');
            int close = line.indexOf(']', open);
            if (open < 0 || close < 0) {
                continue;
            }
            String source = line.substring(open + 1, close);
            boolean script = source.endsWith(" lua");
            if (script != insideScripts || source.endsWith(":" + ignoredPort)) {
                continue;
            }
            int quote = line.indexOf('"', close);
            int end = line.indexOf('"', quote + 1);
            if (quote > 0 && end > quote) {
                names.add(line.substring(quote + 1, end).toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
