package dev.idempotency.web.servlet;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import org.jspecify.annotations.Nullable;

/**
 * The response as the client receives it, copied while it is written once an idempotent handler arms the capture:
 * every byte still goes straight to the client, and a bounded copy is kept for replay. The copy is what message
 * conversion, {@code ResponseBodyAdvice}, {@code @JsonView} and the handler itself wrote. Past the size limit the
 * copy is dropped (and the response not stored); a response ended by {@code sendError} is not stored either, because
 * the container writes its body elsewhere.
 */
final class CapturingResponse extends HttpServletResponseWrapper {

    private @Nullable ByteArrayOutputStream copy;
    private long limit;
    private boolean overflowed;
    private boolean errorSent;
    private @Nullable ServletOutputStream stream;
    private @Nullable PrintWriter writer;

    CapturingResponse(HttpServletResponse response) {
        super(response);
    }

    /** Starts copying what is written from now on, up to {@code maxBytes}. */
    void arm(long maxBytes) {
        copy = new ByteArrayOutputStream(256);
        limit = maxBytes;
    }

    /** The bytes written since {@link #arm}, or {@code null} when they cannot be replayed as sent. */
    byte @Nullable [] copied() {
        if (writer != null) {
            writer.flush();
        }
        return copy == null || overflowed || errorSent ? null : copy.toByteArray();
    }

    boolean overflowed() {
        return overflowed;
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        if (stream == null) {
            stream = new Tee(super.getOutputStream());
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (writer == null) {
            Charset charset = Charset.forName(getCharacterEncoding());
            writer = new PrintWriter(new OutputStreamWriter(getOutputStream(), charset), false);
        }
        return writer;
    }

    @Override
    public void flushBuffer() throws IOException {
        if (writer != null) {
            writer.flush();
        }
        super.flushBuffer();
    }

    @Override
    public void sendError(int status, String message) throws IOException {
        errorSent = true;
        super.sendError(status, message);
    }

    @Override
    public void sendError(int status) throws IOException {
        errorSent = true;
        super.sendError(status);
    }

    @Override
    public void reset() {
        super.reset();
        clearCopy();
    }

    @Override
    public void resetBuffer() {
        super.resetBuffer();
        clearCopy();
    }

    private void clearCopy() {
        if (copy != null) {
            copy.reset();
        }
    }

    private void copy(byte[] bytes, int offset, int length) {
        ByteArrayOutputStream current = copy;
        if (current == null || overflowed) {
            return;
        }
        if (current.size() + (long) length > limit) {
            overflowed = true;
            copy = new ByteArrayOutputStream(0); // let the partial copy go
            return;
        }
        current.write(bytes, offset, length);
    }

    /** Writes through to the client and into the copy. */
    private final class Tee extends ServletOutputStream {

        private final ServletOutputStream target;
        private final byte[] single = new byte[1];

        Tee(ServletOutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            target.write(b);
            single[0] = (byte) b;
            copy(single, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            target.write(bytes, offset, length);
            copy(bytes, offset, length);
        }

        @Override
        public void flush() throws IOException {
            target.flush();
        }

        @Override
        public void close() throws IOException {
            target.close();
        }

        @Override
        public boolean isReady() {
            return target.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            target.setWriteListener(listener);
        }
    }
}
