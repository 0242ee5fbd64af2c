package dev.idempotency.testsupport;

import java.time.Duration;
import java.util.Map;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real, standalone Redis server started by the harness, with admin helpers and fault injection.
 *
 * <p>Obtain one from {@link RedisExtension} (a {@code RedisServer} test parameter) or with {@link #start()}.
 * Fault operations ({@link #kill()}, {@link #pause()}, {@link #resume()}, {@link #restart()}) need the
 * {@link RedisProvider#PROCESS process} provider and a {@link Dedicated} server. The server keeps no data
 * across restarts. Closing it destroys every connection factory it handed out.
 */
public final class RedisServer implements AutoCloseable {

    static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);

    private final ServerBackend backend;
    private final AdminClient admin;
    private final ConnectionFactories factories = new ConnectionFactories();
    private final String version;
    private volatile boolean shared;

    private RedisServer(ServerBackend backend) {
        this.backend = backend;
        this.admin = new AdminClient(backend.host(), backend.port());
        awaitReady();
        this.version = AdminClient.field(admin.info("server"), "redis_version");
    }

    /** Waits for PING on a just-started backend; closes the backend if it never answers. */
    static RedisServer open(ServerBackend backend) {
        try {
            return new RedisServer(backend);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /** Starts a server with the {@linkplain RedisProvider#configured() configured} provider. */
    public static RedisServer start() {
        return start(RedisProvider.configured());
    }

    /** Starts a server with the given provider ({@link RedisProvider#AUTO} tries them in order). */
    public static RedisServer start(RedisProvider provider) {
        RedisServer server = Launcher.standalone(provider);
        Launcher.announce(server.provider(), server.version(), "standalone at " + server.address());
        return server;
    }

    /** The address to connect to, {@code 127.0.0.1} for the process and embedded providers. */
    public String host() {
        return backend.host();
    }

    /** The port to connect to; it stays the same across {@link #restart()}. */
    public int port() {
        return backend.port();
    }

    /** The provider that runs this server; never {@link RedisProvider#AUTO}. */
    public RedisProvider provider() {
        return backend.provider();
    }

    /** The {@code redis_version} reported by the server, e.g. {@code 7.0.15}. */
    public String version() {
        return version;
    }

    /** {@code redis://host:port}. */
    public String uri() {
        return "redis://" + address();
    }

    /** A started Lettuce connection factory with a 2 s command timeout; destroyed when this server closes. */
    public LettuceConnectionFactory newConnectionFactory() {
        return newConnectionFactory(DEFAULT_COMMAND_TIMEOUT);
    }

    /** A started Lettuce connection factory with the given command (and connect) timeout. */
    public LettuceConnectionFactory newConnectionFactory(Duration commandTimeout) {
        return factories.standalone(host(), port(), commandTimeout);
    }

    /**
     * Calls per command since start or {@link #resetStats()}, from {@code INFO commandstats}: keys are the
     * lower-case names after {@code cmdstat_}, e.g. {@code get}, {@code evalsha}, {@code config|resetstat}.
     * Commands run inside Lua scripts count too, and so do the harness's own {@code info}, {@code ping},
     * {@code hello} and {@code client} calls.
     */
    public Map<String, Long> commandStats() {
        return admin.commandStats();
    }

    /** Calls of one command, e.g. {@code commandCalls("set")}; 0 if it never ran. */
    public long commandCalls(String command) {
        return commandStats().getOrDefault(command, 0L);
    }

    /** {@code CONFIG RESETSTAT}. */
    public void resetStats() {
        admin.call(commands -> commands.configResetstat());
    }

    /** {@code FLUSHALL}; refused on a shared server, whose keys belong to other tests too. */
    public void flushAll() {
        requireDedicated("flushAll()");
        admin.call(commands -> commands.flushall());
    }

    /** SIGKILL: the server dies at once and clients see a broken connection. */
    public void kill() {
        requireDedicated("kill()");
        backend.kill();
    }

    /** SIGSTOP: connections stay open but nothing is answered, so commands time out. */
    public void pause() {
        requireDedicated("pause()");
        backend.pause();
    }

    /** SIGCONT after {@link #pause()}. */
    public void resume() {
        requireDedicated("resume()");
        backend.resume();
    }

    /** Starts the server again on the same port (killing it first if still running) and waits for PING. */
    public void restart() {
        requireDedicated("restart()");
        backend.restart();
        awaitReady();
    }

    /** Graceful shutdown; {@link #restart()} brings it back. */
    public void stop() {
        requireDedicated("stop()");
        backend.stop();
    }

    @Override
    public void close() {
        try {
            factories.destroyAll();
            admin.close();
        } finally {
            backend.close();
        }
    }

    @Override
    public String toString() {
        return "RedisServer[" + provider().id() + " " + version + " at " + address() + "]";
    }

    String address() {
        return host() + ":" + port();
    }

    String diagnostics() {
        return backend.diagnostics();
    }

    AdminClient admin() {
        return admin;
    }

    RedisServer markShared() {
        shared = true;
        return this;
    }

    private void awaitReady() {
        Await.until(
                READY_TIMEOUT,
                "Redis (" + provider().id() + ") at " + address() + " to answer PING",
                () -> {
                    backend.checkAlive();
                    return admin.answersPing();
                },
                backend::diagnostics);
    }

    private void requireDedicated(String operation) {
        if (shared) {
            throw new IllegalStateException(operation + " on the shared Redis server would break other tests; "
                    + "annotate the parameter with @Dedicated to get a server of its own");
        }
    }
}
