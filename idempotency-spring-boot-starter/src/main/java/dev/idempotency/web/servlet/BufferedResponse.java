package dev.idempotency.web.servlet;

import dev.idempotency.internal.http.HeldBody;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.util.LinkedCaseInsensitiveMap;

/**
 * A response that only remembers what is written to it: where a late answer is rendered, once its client is gone, so
 * that what it would have been sent can be stored for duplicates. {@code sendError} keeps the status; no error page
 * renders a body for it.
 */
final class BufferedResponse implements HttpServletResponse {

    private final Map<String, List<String>> headers = new LinkedCaseInsensitiveMap<>(Locale.ROOT);
    private final HeldBody body = new HeldBody();
    private int status = SC_OK;
    private boolean errorSent;
    private @Nullable String characterEncoding;
    private Locale locale = Locale.getDefault();
    private @Nullable PrintWriter writer;
    private final ServletOutputStream stream = new ServletOutputStream() {
        @Override
        public void write(int b) {
            body.write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            body.write(bytes, offset, length);
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            throw new UnsupportedOperationException("a late answer is rendered blocking");
        }
    };

    /** The body as written, or {@code null} when {@code sendError} left it to an error page that never comes. */
    @Nullable
    HeldBody body() {
        if (writer != null) {
            writer.flush();
        }
        return errorSent ? null : body;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void setStatus(int status) {
        this.status = status;
    }

    @Override
    public void sendError(int status, @Nullable String message) {
        sendError(status);
    }

    @Override
    public void sendError(int status) {
        this.status = status;
        this.errorSent = true;
        body.clear();
    }

    @Override
    public void sendRedirect(String location, int status, boolean clearBuffer) {
        this.status = status;
        setHeader(HttpHeaders.LOCATION, location);
    }

    @Override
    public boolean containsHeader(String name) {
        return headers.containsKey(name);
    }

    @Override
    public @Nullable String getHeader(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public Collection<String> getHeaders(String name) {
        return List.copyOf(headers.getOrDefault(name, List.of()));
    }

    @Override
    public Collection<String> getHeaderNames() {
        return List.copyOf(headers.keySet());
    }

    @Override
    public void setHeader(String name, @Nullable String value) {
        if (value == null) {
            headers.remove(name);
        } else {
            headers.put(name, new ArrayList<>(List.of(value)));
        }
    }

    @Override
    public void addHeader(String name, String value) {
        headers.computeIfAbsent(name, unused -> new ArrayList<>()).add(value);
    }

    @Override
    public void setIntHeader(String name, int value) {
        setHeader(name, Integer.toString(value));
    }

    @Override
    public void addIntHeader(String name, int value) {
        addHeader(name, Integer.toString(value));
    }

    @Override
    public void setDateHeader(String name, long date) {
        HttpHeaders formatted = new HttpHeaders();
        formatted.setDate(name, date);
        setHeader(name, formatted.getFirst(name));
    }

    @Override
    public void addDateHeader(String name, long date) {
        HttpHeaders formatted = new HttpHeaders();
        formatted.setDate(name, date);
        addHeader(name, formatted.getFirst(name));
    }

    @Override
    public void addCookie(Cookie cookie) {
        // never replayed, so not kept
    }

    @Override
    public String encodeURL(String url) {
        return url;
    }

    @Override
    public String encodeRedirectURL(String url) {
        return url;
    }

    @Override
    public @Nullable String getCharacterEncoding() {
        return characterEncoding != null ? characterEncoding : StandardCharsets.ISO_8859_1.name();
    }

    @Override
    public void setCharacterEncoding(@Nullable String encoding) {
        this.characterEncoding = encoding;
    }

    @Override
    public @Nullable String getContentType() {
        return getHeader(HttpHeaders.CONTENT_TYPE);
    }

    @Override
    public void setContentType(@Nullable String type) {
        if (type == null) {
            headers.remove(HttpHeaders.CONTENT_TYPE);
            return;
        }
        MediaType mediaType = MediaType.parseMediaType(type);
        if (mediaType.getCharset() != null) {
            characterEncoding = mediaType.getCharset().name();
        }
        setHeader(HttpHeaders.CONTENT_TYPE, type);
    }

    @Override
    public void setContentLength(int length) {
        setContentLengthLong(length);
    }

    @Override
    public void setContentLengthLong(long length) {
        setHeader(HttpHeaders.CONTENT_LENGTH, Long.toString(length));
    }

    @Override
    public ServletOutputStream getOutputStream() {
        return stream;
    }

    @Override
    public PrintWriter getWriter() {
        if (writer == null) {
            writer = new PrintWriter(new OutputStreamWriter(stream, Charset.forName(getCharacterEncoding())), false);
        }
        return writer;
    }

    @Override
    public void setBufferSize(int size) {}

    @Override
    public int getBufferSize() {
        return 0;
    }

    @Override
    public void flushBuffer() {
        if (writer != null) {
            writer.flush();
        }
    }

    @Override
    public void resetBuffer() {
        body.clear();
    }

    @Override
    public boolean isCommitted() {
        return false;
    }

    @Override
    public void reset() {
        body.clear();
        headers.clear();
        status = SC_OK;
        errorSent = false;
    }

    @Override
    public void setLocale(Locale locale) {
        this.locale = locale;
    }

    @Override
    public Locale getLocale() {
        return locale;
    }
}
