package dev.idempotency.web;

import dev.idempotency.IdempotencyException;

/**
 * A {@code REQUEST_ID} request asked (by its {@code Accept} header) for a streamed response ({@code text/event-stream},
 * NDJSON), which cannot be stored and replayed as sent; refused before the handler runs (HTTP 406, problem type
 * {@code stream-not-replayable}). Ask for the whole body ({@code application/json}) instead.
 */
public class StreamNotReplayableException extends IdempotencyException {

    /**
     * Creates the exception.
     *
     * @param message what happened, for the log and the problem detail
     */
    public StreamNotReplayableException(String message) {
        super(message);
    }
}
