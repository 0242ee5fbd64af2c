package dev.idempotency.bench.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking RESP2 client on a plain socket, enough for the probe's {@code INFO}, {@code MEMORY USAGE},
 * {@code STRLEN} and {@code ECHO}: the probe must not share the application's client library or connection.
 */
final class RespConnection implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    RespConnection(String host, int port) throws IOException {
        socket = new Socket(host, port);
        socket.setSoTimeout(10_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    /** The local port, by which {@code MONITOR} lines of this connection are told apart from the application's. */
    int localPort() {
        return socket.getLocalPort();
    }

    /** Sends one command and reads its reply: a String, a Long, a List, or {@code null}. */
    Object call(String... args) throws IOException {
        send(out, args);
        return read();
    }

    static void send(OutputStream out, String... args) throws IOException {
        ByteArrayOutputStream command = new ByteArrayOutputStream();
        command.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            command.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            command.writeBytes(bytes);
            command.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write(command.toByteArray());
        out.flush();
    }

    private Object read() throws IOException {
        int type = in.read();
        String line = readLine();
        return switch (type) {
            case '+' -> line;
            case '-' -> throw new IOException("Redis error: " + line);
            case ':' -> Long.parseLong(line);
            case '$' -> {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    yield null;
                }
                byte[] bytes = in.readNBytes(length);
                in.readNBytes(2);
                yield new String(bytes, StandardCharsets.UTF_8);
            }
            case '*' -> {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    yield null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                yield items;
            }
            default -> throw new IOException("Unexpected RESP type " + type);
        };
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\r') {
            if (b < 0) {
                throw new IOException("Connection closed");
            }
            line.write(b);
        }
        in.read();
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
