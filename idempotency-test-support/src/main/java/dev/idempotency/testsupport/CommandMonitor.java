package dev.idempotency.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.jspecify.annotations.Nullable;

/**
 * Records the commands a Redis server executes, through {@code MONITOR} on a connection of its own (a plain socket, or
 * TLS for a {@linkplain RedisServer#isTls() TLS server}), as the {@code default} user. Redis marks commands run by a
 * Lua script with {@code [0 lua]}, so the recording tells round trips (top-level commands) from commands inside
 * scripts.
 *
 * <p>MONITOR output arrives after the command has run, so every query first {@linkplain #sync() syncs}: it sends
 * {@code ECHO <marker>} on a second connection and waits until the monitor has seen it. The marker is not recorded,
 * and neither is anything else on that connection. Everything else is, including the harness's own {@code INFO} and
 * {@code PING} calls on the same server.
 */
public final class CommandMonitor implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int READ_TIMEOUT_MILLIS = 5_000;
    private static final long WAIT_SECONDS = 10;

    private final String host;
    private final int port;
    private final @Nullable SSLContext tls;
    private final Socket socket;
    private final List<String> lines = new ArrayList<>();
    private volatile String awaitedMarker = "";
    private volatile CountDownLatch markerSeen = new CountDownLatch(1);
    private volatile @Nullable String ended;

    /** Starts monitoring a plain-text server; returns once the server has confirmed {@code MONITOR}. */
    public CommandMonitor(String host, int port) throws IOException, InterruptedException {
        this(host, port, null);
    }

    /** Starts monitoring a harness server, over TLS if it is a TLS server. */
    public CommandMonitor(RedisServer server) throws IOException, InterruptedException {
        this(
                server.host(),
                server.port(),
                server.tls() == null ? null : server.tls().sslContext());
    }

    private CommandMonitor(String host, int port, @Nullable SSLContext tls) throws IOException, InterruptedException {
        this.host = host;
        this.port = port;
        this.tls = tls;
        this.socket = connect();
        socket.getOutputStream().write(command("MONITOR"));
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        CountDownLatch ready = new CountDownLatch(1);
        Thread reader = new Thread(() -> read(in, ready), "redis-monitor-" + port);
        reader.setDaemon(true);
        reader.start();
        if (!ready.await(WAIT_SECONDS, TimeUnit.SECONDS) || ended != null) {
            socket.close();
            throw new IOException("MONITOR did not start on " + host + ":" + port + ": "
                    + (ended != null ? ended : "no +OK within " + WAIT_SECONDS + " s"));
        }
    }

    private void read(BufferedReader in, CountDownLatch ready) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (ready.getCount() > 0) {
                    if (!line.equals("+OK")) {
                        ended = "the server answered MONITOR with " + line;
                    }
                    ready.countDown();
                } else if (!awaitedMarker.isEmpty() && line.contains(awaitedMarker)) {
                    markerSeen.countDown();
                } else {
                    synchronized (lines) {
                        lines.add(line);
                    }
                }
            }
            ended = "the server closed the MONITOR connection";
        } catch (IOException e) {
            ended = "the MONITOR connection failed or was closed: " + e;
        } finally {
            ready.countDown();
        }
    }

    /** Syncs, then forgets everything recorded so far: later queries see only commands sent after this call. */
    public void reset() {
        sync();
        clear();
    }

    /** Forgets everything recorded so far, without syncing; commands still in flight may be recorded later. */
    public void clear() {
        synchronized (lines) {
            lines.clear();
        }
    }

    /**
     * Waits (at most 10 s) until everything the server executed before this call has been recorded, by sending
     * {@code ECHO <marker>} on a second connection and waiting for the monitor to see it.
     */
    public synchronized void sync() {
        String marker = "monitor-sync-" + UUID.randomUUID();
        markerSeen = new CountDownLatch(1);
        awaitedMarker = marker;
        try (Socket probe = connect()) {
            probe.setSoTimeout(READ_TIMEOUT_MILLIS);
            OutputStream out = probe.getOutputStream();
            out.write(command("ECHO", marker));
            out.flush();
            if (probe.getInputStream().read() < 0) {
                throw new IllegalStateException("The server closed the sync connection before answering ECHO");
            }
            if (!markerSeen.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("MONITOR on " + host + ":" + port + " did not show its sync marker"
                        + " within " + WAIT_SECONDS + " s" + (ended != null ? "; " + ended : ""));
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not sync the MONITOR on " + host + ":" + port, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while syncing the MONITOR", e);
        } finally {
            awaitedMarker = "";
        }
    }

    /** Syncs; the lower-case names of top-level commands (round trips) since {@link #reset()}, in order. */
    public List<String> roundTrips() {
        sync();
        return commands(false, -1);
    }

    /** Syncs; the lower-case names of commands run inside Lua scripts since {@link #reset()}, in order. */
    public List<String> scriptCommands() {
        sync();
        return commands(true, -1);
    }

    /** Syncs; every command executed since {@link #reset()}: the round trips, then the commands inside scripts. */
    public List<String> executed() {
        sync();
        List<String> all = commands(false, -1);
        all.addAll(commands(true, -1));
        return all;
    }

    /**
     * Without syncing: the lower-case names of the commands recorded so far that clients sent ({@code insideScripts}
     * false) or that scripts ran (true), leaving out those sent from local port {@code ignoredPort} (e.g. a probe
     * connection of the caller's own; -1 leaves out nothing).
     */
    public List<String> commands(boolean insideScripts, int ignoredPort) {
        return names(source ->
                source.endsWith(" lua") == insideScripts && (ignoredPort < 0 || !source.endsWith(":" + ignoredPort)));
    }

    /**
     * Syncs; the lower-case names of the commands that one client sent since {@link #reset()}, in order: the round
     * trips of one application's connection, whatever else talks to the server meanwhile.
     *
     * @param client the client's address as the server sees it, e.g. from {@link #clientSending}
     */
    public List<String> roundTripsFrom(String client) {
        sync();
        return names(source -> source.endsWith(" " + client));
    }

    /**
     * Syncs; the address ({@code host:port}) of the client that sent the first command recorded since {@link #reset()}
     * with {@code text} among its arguments, e.g. a marker the caller sent through a connection it cannot see into.
     *
     * @throws IllegalStateException when no such command was recorded
     */
    public String clientSending(String text) {
        sync();
        for (String line : lines()) {
            int open = line.indexOf('[');
            int close = line.indexOf(']', open);
            if (open >= 0 && close > open && line.indexOf(text, close) > 0) {
                String source = line.substring(open + 1, close);
                return source.substring(source.indexOf(' ') + 1);
            }
        }
        throw new IllegalStateException("No command with '" + text + "' was recorded");
    }

    /** Names of the recorded commands whose source ({@code "0 127.0.0.1:54321"} or {@code "0 lua"}) is accepted. */
    private List<String> names(Predicate<String> acceptedSource) {
        List<String> names = new ArrayList<>();
        for (String line : lines()) {
            // 1700000000.123456 [0 127.0.0.1:54321] "set" "key" "value"  or  ... [0 lua] "get" "key"
            int open = line.indexOf('[');
            int close = line.indexOf(']', open);
            if (open < 0 || close < 0 || !acceptedSource.test(line.substring(open + 1, close))) {
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

    /** The raw MONITOR lines recorded so far (without syncing), for diagnostics. */
    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    private Socket connect() throws IOException {
        Socket plain = new Socket();
        try {
            plain.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
            if (tls == null) {
                return plain;
            }
            SSLSocket secure = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true);
            // Check the server's name as Lettuce does with peer verification, not only the CA.
            SSLParameters parameters = secure.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            secure.setSSLParameters(parameters);
            secure.startHandshake();
            return secure;
        } catch (IOException | RuntimeException e) {
            plain.close();
            throw e;
        }
    }

    /** A RESP array of bulk strings, so arguments need no quoting. */
    private static byte[] command(String... args) {
        StringBuilder command = new StringBuilder("*" + args.length + "\r\n");
        for (String arg : args) {
            command.append('$')
                    .append(arg.getBytes(StandardCharsets.UTF_8).length)
                    .append("\r\n")
                    .append(arg)
                    .append("\r\n");
        }
        return command.toString().getBytes(StandardCharsets.UTF_8);
    }
}
