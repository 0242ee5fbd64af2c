package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HeldBody;
import dev.idempotency.internal.http.HeldBytes;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import org.jspecify.annotations.Nullable;

/**
 * The response as the client receives it, held back while it is written once an idempotent handler arms the capture,
 * and sent when {@link #release released}: so the response is stored before the client sees any of it, and a client
 * that retries the moment it has the response finds the record (message converters flush as they finish, which would
 * otherwise send the response first). What is held is what message conversion, {@code ResponseBodyAdvice},
 * {@code @JsonView} and the handler itself wrote. Past the size limit the held bytes are sent and the rest streams
 * through (and the response is not stored), and so it is when all calls in flight hold {@link HeldBytes} already; a
 * response ended by {@code sendError} gets its body in the container's error dispatch, which
 * {@link IdempotencyResponseFilter} captures with a wrapper of its own.
 */
final class CapturingResponse extends HttpServletResponseWrapper {

    private final HeldBytes budget;
    private @Nullable HeldBody copy;
    private long limit;
    private long reserved;
    private boolean overflowed;
    private boolean errorSent;
    private @Nullable ServletOutputStream stream;
    private @Nullable PrintWriter writer;
    private boolean closeOnRelease;

    CapturingResponse(HttpServletResponse response, HeldBytes budget) {
        super(response);
        this.budget = budget;
    }

    HeldBytes budget() {
        return budget;
    }

    /** Starts holding what is written from now on, up to {@code maxBytes}. */
    void arm(long maxBytes) {
        copy = new HeldBody();
        limit = maxBytes;
    }

    /**
     * The bytes written since {@link #arm}, or {@code null} when they cannot be replayed as sent. Not a copy: read it
     * before {@link #release}.
     */
    @Nullable
    HeldBody copied() {
        if (writer != null) {
            writer.flush();
        }
        return copy == null || overflowed || errorSent ? null : copy;
    }

    boolean overflowed() {
        return overflowed;
    }

    /** Whether the response was ended by {@code sendError}: the container renders its body in an error dispatch. */
    boolean errorSent() {
        return errorSent;
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
        if (!holding()) {
            super.flushBuffer();
        }
    }

    /** Sends what is held and lets everything after it through. Idempotent; call once the response is settled. */
    void release() throws IOException {
        if (writer != null) {
            writer.flush();
        }
        HeldBody held = copy;
        if (held != null && !overflowed) {
            overflowed = true; // nothing more is held
            ServletOutputStream target = super.getOutputStream();
            try {
                held.writeTo(target);
            } finally {
                held.clear();
                giveBack();
            }
            if (closeOnRelease) {
                target.close();
            }
        }
    }

    /** Gives the held bytes back to the budget; also when the request ends without a release (see ExchangeEnd). */
    void giveBack() {
        budget.release(reserved);
        reserved = 0;
    }

    private boolean holding() {
        return copy != null && !overflowed;
    }

    @Override
    public void sendError(int status, String message) throws IOException {
        errorSent = true;
        clearCopy(); // the container replaces the body
        super.sendError(status, message);
    }

    @Override
    public void sendError(int status) throws IOException {
        errorSent = true;
        clearCopy();
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
            copy.clear();
            giveBack();
        }
    }

    /** Holds {@code bytes}; returns {@code false} when they are not held and must go through. */
    private boolean hold(byte[] bytes, int offset, int length, ServletOutputStream target) throws IOException {
        HeldBody current = copy;
        if (current == null || overflowed) {
            return false;
        }
        if (current.size() + (long) length > limit || !budget.tryReserve(length)) {
            overflowed = true;
            current.writeTo(target); // too large to store, or too much held at once: send it, stream the rest
            current.clear();
            giveBack();
            return false;
        }
        reserved += length;
        current.write(bytes, offset, length);
        return true;
    }

    /** Holds what is written while armed, else writes through to the client. */
    private final class Tee extends ServletOutputStream {

        private final ServletOutputStream target;
        private final byte[] single = new byte[1];

        Tee(ServletOutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            single[0] = (byte) b;
            write(single, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (!hold(bytes, offset, length, target)) {
                target.write(bytes, offset, length);
            }
        }

        @Override
        public void flush() throws IOException {
            if (!holding()) {
                target.flush();
            }
        }

        @Override
        public void close() throws IOException {
            if (holding()) {
                closeOnRelease = true;
            } else {
                target.close();
            }
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
