package dev.idempotency.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Records what a Redis server executes, through {@code MONITOR} on a plain socket. Redis marks commands run by a Lua
 * script with {@code [0 lua]}, so the recording tells round trips (top-level commands) from commands inside scripts.
 */
public final class CommandMonitor implements AutoCloseable {

    private final Socket socket;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private volatile String awaitedMarker = "";
    private volatile CountDownLatch markerSeen = new CountDownLatch(1);

    public CommandMonitor(String host, int port) throws IOException, InterruptedException {
        socket = new Socket(host, port);
        socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        CountDownLatch ready = new CountDownLatch(1);
        reader = new Thread(() -> read(in, ready), "redis-monitor");
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
                } else if (line.contains(awaitedMarker) && !awaitedMarker.isEmpty()) {
                    markerSeen.countDown();
                } else {
                    lines.add(line);
                }
            }
        } catch (IOException closed) {
            // the monitor was closed
        }
    }

    /** Commands recorded from now on: forgets earlier ones. */
    public void reset() {
        sync();
        lines.clear();
    }

    /** Top-level commands (round trips) recorded since {@link #reset()}, lowercase names. */
    public List<String> roundTrips() {
        sync();
        return names(false);
    }

    /** Every command executed since {@link #reset()}, including those inside scripts. */
    public List<String> executed() {
        sync();
        List<String> all = names(false);
        all.addAll(names(true));
        return all;
    }

    private List<String> names(boolean insideScripts) {
        List<String> names = new ArrayList<>();
        for (String line : lines) {
            boolean lua = line.contains(" lua] ");
            if (lua == insideScripts) {
                int start = line.indexOf("] \"") + 3;
                names.add(line.substring(start, line.indexOf('"', start)).toLowerCase());
            }
        }
        return names;
    }

    /** Waits until every command sent before this call has been seen, by sending a marker on a second connection. */
    private void sync() {
        String marker = "monitor-sync-" + UUID.randomUUID();
        markerSeen = new CountDownLatch(1);
        awaitedMarker = marker;
        try (Socket ping = new Socket(socket.getInetAddress(), socket.getPort())) {
            OutputStream out = ping.getOutputStream();
            out.write(("ECHO " + marker + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            ping.getInputStream().read();
            if (!markerSeen.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("MONITOR did not see its marker");
            }
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
