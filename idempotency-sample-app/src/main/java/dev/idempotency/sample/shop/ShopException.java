package dev.idempotency.sample.shop;

import org.springframework.http.HttpStatus;

/** A failure the shop answers with a problem response of its own status, {@code type} and {@code title}. */
public abstract class ShopException extends RuntimeException {

    private final HttpStatus status;
    private final String slug;
    private final String title;

    protected ShopException(HttpStatus status, String slug, String title, String detail) {
        super(detail);
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public HttpStatus status() {
        return status;
    }

    /** The last segment of the problem {@code type}, e.g. {@code out-of-stock}. */
    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }
}
