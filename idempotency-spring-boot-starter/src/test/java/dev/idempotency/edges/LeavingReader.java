package dev.idempotency.edges;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A client that reads the start of a large answer and then drops the connection (RST), mid-download. */
final class LeavingReader {

    private LeavingReader() {}

    /** Sends {@code POST path} with {@code Idempotency-Key: key}, reads {@code bytes} of the answer, and leaves. */
    static void readThenLeave(int port, String path, String key, int bytes) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            String request = "POST " + path + " HTTP/1.1\r\n"
                    + "Host: 127.0.0.1:" + port + "\r\n"
                    + "Idempotency-Key: " + key + "\r\n"
                    + "Content-Type: application/json\r\n"
                    + "Content-Length: 2\r\n"
                    + "\r\n{}";
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            int read = 0;
            while (read < bytes) {
                int n = in.read(buffer);
                if (n < 0) {
                    throw new IllegalStateException("the server closed the answer after " + read + " bytes");
                }
                read += n;
            }
            socket.setSoLinger(true, 0);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
