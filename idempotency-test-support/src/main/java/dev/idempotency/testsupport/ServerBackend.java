package dev.idempotency.testsupport;

/**
 * What a provider does to run one Redis server. Fault operations a provider cannot do throw
 * {@link UnsupportedOperationException}, so a fault test on the wrong provider fails loudly.
 */
interface ServerBackend {

    RedisProvider provider();

    String host();

    int port();

    /** Throws, with diagnostics, if the server can no longer come up (e.g. its process exited). */
    default void checkAlive() {}

    /** Extra text for error messages, such as the tail of the server log. */
    default String diagnostics() {
        return "";
    }

    default void kill() {
        throw unsupported("kill()");
    }

    default void pause() {
        throw unsupported("pause()");
    }

    default void resume() {
        throw unsupported("resume()");
    }

    /** Starts the server again on the same port; the caller waits for PING. */
    default void restart() {
        throw unsupported("restart()");
    }

    void stop();

    /** Stops the server and releases everything it holds; must not throw. */
    void close();

    default UnsupportedOperationException unsupported(String operation) {
        return new UnsupportedOperationException(
                operation + " is not supported by the '" + provider().id()
                        + "' Redis provider; fault injection needs the 'process' provider ("
                        + RedisProvider.PROPERTY + "=process or auto)");
    }
}
