package dev.idempotency.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of a server on this machine. Armed, it lets requests through but drops the client's connection
 * (with a reset) as soon as the server's response arrives, so the server has done the work and answered while the
 * client sees only an I/O error: the lost reply that makes clients retry. Or it passes a response's head and ends the
 * connection before the body, so the client has a status and headers, then fails while reading the body.
 */
final class DroppingProxy implements AutoCloseable {

    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger toDrop = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();
    private final AtomicInteger toCut = new AtomicInteger();
    private final AtomicInteger cut = new AtomicInteger();

    DroppingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        daemon(this::accept);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    /** Drops the connections that carry the next {@code responses} responses. */
    void dropNextResponses(int responses) {
        toDrop.set(responses);
    }

    /** Responses the proxy kept from the client so far. */
    int dropped() {
        return dropped.get();
    }

    /** Passes only the status line and headers of the next {@code responses} responses, then ends the connection. */
    void cutNextResponsesAfterHead(int responses) {
        toCut.set(responses);
    }

    /** Responses the proxy passed without their body so far. */
    int cut() {
        return cut.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(server);
                daemon(() -> pump(client, server, false));
                daemon(() -> pump(server, client, true));
            } catch (IOException ex) {
                // Closed, or the server refused: the client sees its connection fail, as it would without us.
            }
        }
    }

    private void pump(Socket from, Socket to, boolean responses) {
        byte[] buffer = new byte[16 * 1024];
        HeadEnd cutting = null;
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int read; (read = in.read(buffer)) != -1; ) {
                if (responses && toDrop.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    dropped.incrementAndGet();
                    to.setSoLinger(true, 0); // a reset, not an orderly close: the client must not take it as the end
                    break;
                }
                if (responses && cutting == null && toCut.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    cutting = new HeadEnd();
                }
                if (cutting == null) {
                    out.write(buffer, 0, read);
                    out.flush();
                } else if (!to.isOutputShutdown()) {
                    int end = cutting.find(buffer, read);
                    out.write(buffer, 0, end < 0 ? read : end);
                    out.flush();
                    if (end >= 0) {
                        // An orderly end after the head, so that the head surely arrives first; the body was
                        // announced, so the client takes the early end as a failure. The rest is read and dropped.
                        to.shutdownOutput();
                        cut.incrementAndGet();
                    }
                }
            }
        } catch (IOException ex) {
            // One side went away; closing both ends the other pump too.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** Finds the blank line that ends a response head, across reads. */
    private static final class HeadEnd {
        private static final byte[] BLANK_LINE = {'\r', '\n', '\r', '\n'};
        private int matched;

        /** The length of {@code buffer}'s first {@code read} bytes up to the end of the head, or -1 if not in them. */
        int find(byte[] buffer, int read) {
            for (int i = 0; i < read; i++) {
                matched = buffer[i] == BLANK_LINE[matched] ? matched + 1 : (buffer[i] == '\r' ? 1 : 0);
                if (matched == BLANK_LINE.length) {
                    return i + 1;
                }
            }
            return -1;
        }
    }

    private static void daemon(Runnable work) {
        Thread thread = new Thread(work, "dropping-proxy");
        thread.setDaemon(true);
        thread.start();
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException ex) {
            // already gone
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(this::closeQuietly);
    }
}
