package dev.idempotency.edges;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A client that sends a request and goes away before the answer: closing it drops the connection. */
final class Disconnecting implements AutoCloseable {

    private final Socket socket;

    private Disconnecting(Socket socket) {
        this.socket = socket;
    }

    /** Sends {@code POST path} with an {@code Idempotency-Key} (unless {@code null}) and an empty JSON body. */
    static Disconnecting post(int port, String path, String key) {
        return key == null ? send(port, path, "") : post(port, path, "Idempotency-Key", key);
    }

    /** Sends {@code POST path} with the header {@code name: value} and an empty JSON body. */
    static Disconnecting post(int port, String path, String name, String value) {
        return send(port, path, name + ": " + value + "\r\n");
    }

    private static Disconnecting send(int port, String path, String headers) {
        try {
            Socket socket = new Socket("127.0.0.1", port);
            String request = "POST " + path + " HTTP/1.1\r\n"
                    + "Host: 127.0.0.1:" + port + "\r\n"
                    + headers
                    + "Content-Type: application/json\r\n"
                    + "Content-Length: 2\r\n"
                    + "\r\n{}";
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new Disconnecting(socket);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Reads {@code bytes} of the answer, as a client that then leaves mid-download has. */
    void read(int bytes) throws IOException {
        byte[] buffer = new byte[4096];
        int read = 0;
        while (read < bytes) {
            int n = socket.getInputStream().read(buffer);
            if (n < 0) {
                throw new IllegalStateException("the server closed the answer after " + read + " bytes");
            }
            read += n;
        }
    }

    /** Drops the connection at once (RST), as a client process that dies or times out does. */
    @Override
    public void close() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }
}
