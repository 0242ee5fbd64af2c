package dev.idempotency.reliability;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, for requests a regular client refuses to send (control characters, raw non-ASCII bytes,
 * 64 KB header values). Keeps its connection alive between requests and reconnects when the server closes it.
 */
final class RawHttp implements AutoCloseable {

    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    RawHttp(int port) {
        this.port = port;
    }

    /** A POST whose {@code header} carries exactly {@code value}'s bytes ({@code null}: header absent). */
    static byte[] post(String path, String header, byte[] value, String contentType, byte[] body) {
        ByteArrayOutputStream request =
                new ByteArrayOutputStream(256 + body.length + (value == null ? 0 : value.length));
        request.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + contentType
                        + "\r\nContent-Length: " + body.length + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        if (value != null) {
            request.writeBytes((header + ": ").getBytes(StandardCharsets.ISO_8859_1));
            request.writeBytes(value);
            request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        request.writeBytes(body);
        return request.toByteArray();
    }

    /** Sends one request and reads the whole response; returns its status, or {@link Http#NO_RESPONSE}. */
    int send(byte[] request) {
        for (int attempt = 0; attempt < 2; attempt++) {
            boolean reused = socket != null;
            try {
                if (socket == null) {
                    open();
                }
                try {
                    out.write(request);
                    out.flush();
                } catch (IOException ex) {
                    if (reused) {
                        throw new StaleConnection();
                    }
                    throw ex;
                }
                return readResponse();
            } catch (StaleConnection ex) {
                closeQuietly();
                if (!reused) {
                    return Http.NO_RESPONSE;
                }
            } catch (IOException ex) {
                closeQuietly();
                return Http.NO_RESPONSE;
            }
        }
        return Http.NO_RESPONSE;
    }

    private void open() throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(20_000);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        out = socket.getOutputStream();
    }

    private int readResponse() throws IOException {
        String statusLine = readLine(true);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        for (String line = readLine(false); !line.isEmpty(); line = readLine(false)) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        if (chunked) {
            for (long size = Long.parseLong(readLine(false).split(";")[0].trim(), 16);
                    size > 0;
                    size = Long.parseLong(readLine(false).split(";")[0].trim(), 16)) {
                skip(size);
                readLine(false);
            }
            for (String trailer = readLine(false); !trailer.isEmpty(); trailer = readLine(false)) {
                // trailers are ignored
            }
        } else if (length >= 0) {
            skip(length);
        } else if (status >= 200 && status != 204 && status != 304) {
            in.transferTo(OutputStream.nullOutputStream());
            close = true;
        }
        if (close) {
            closeQuietly();
        }
        return status;
    }

    private String readLine(boolean first) throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (first && line.length() == 0) {
                    throw new StaleConnection();
                }
                throw new IOException("connection closed mid-response");
            }
            if (b == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            line.append((char) b);
        }
    }

    private void skip(long bytes) throws IOException {
        long left = bytes;
        while (left > 0) {
            long skipped = in.skip(left);
            if (skipped <= 0) {
                if (in.read() < 0) {
                    throw new IOException("connection closed mid-body");
                }
                skipped = 1;
            }
            left -= skipped;
        }
    }

    private void closeQuietly() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ex) {
                // closing anyway
            }
        }
        socket = null;
    }

    @Override
    public void close() {
        closeQuietly();
    }

    /** The server closed a kept-alive connection before answering: safe to send again on a new one. */
    private static final class StaleConnection extends IOException {
        private static final long serialVersionUID = 1L;
    }
}
