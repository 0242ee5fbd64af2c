package dev.idempotency.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real, standalone Redis server started by the harness, with admin helpers and fault injection.
 *
 * <p>Obtain one from {@link RedisExtension} (a {@code RedisServer} test parameter), with {@link #start()}, or with
 * {@link #builder()} for a server that accepts only TLS and/or has a restricted ACL user. Fault operations
 * ({@link #kill()}, {@link #pause()}, {@link #resume()}, {@link #restart()}) need the {@link RedisProvider#PROCESS
 * process} provider and a {@link Dedicated} server. The server keeps no data across restarts. Closing it destroys
 * every connection factory it handed out.
 *
 * <p>The harness's own commands ({@link #commandStats()}, {@link #flushAll()}, ...) always run as the unrestricted
 * {@code default} user; {@link #newConnectionFactory(Duration)} connects the way an application would.
 */
public final class RedisServer implements RedisTopology, AutoCloseable {

    static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
    /** The SSL bundle name in {@link #springProperties()} of a TLS server. */
    static final String SSL_BUNDLE = "redis-harness";

    private final ServerBackend backend;
    private final @Nullable TlsCertificates tls;
    private final @Nullable AclUser aclUser;
    private final AdminClient admin;
    private final ConnectionFactories factories = new ConnectionFactories();
    private final String version;
    private volatile boolean shared;

    private RedisServer(ServerBackend backend, @Nullable TlsCertificates tls, @Nullable AclUser aclUser) {
        this.backend = backend;
        this.tls = tls;
        this.aclUser = aclUser;
        this.admin = new AdminClient(backend.host(), backend.port(), tls);
        awaitReady();
        this.version = RedisInfo.field(admin.info("server"), "redis_version");
        if (aclUser != null) {
            checkLogin(aclUser);
        }
    }

    /** Waits for PING on a just-started backend; closes the backend if it never answers. */
    static RedisServer open(ServerBackend backend) {
        return open(backend, null, null);
    }

    /** Like {@link #open(ServerBackend)} for a server that accepts only TLS and/or defines an ACL user. */
    static RedisServer open(ServerBackend backend, @Nullable TlsCertificates tls, @Nullable AclUser aclUser) {
        try {
            return new RedisServer(backend, tls, aclUser);
        } catch (RuntimeException e) {
            backend.close();
            throw e;
        }
    }

    /**
     * A builder for a server with options, e.g. {@code RedisServer.builder().tls().aclUser(name, password, rules)
     * .start()}. Without options it starts the same server as {@link #start()}.
     */
    public static Builder builder() {
        return new Builder();
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

    /** {@code redis://host:port}, or {@code rediss://host:port} for a TLS server; never with credentials. */
    public String uri() {
        return (tls != null ? "rediss://" : "redis://") + address();
    }

    /**
     * {@code standalone}, or which options it has: {@code tls}, {@code acl} or {@code tls+acl}.
     */
    @Override
    public String name() {
        if (tls == null && aclUser == null) {
            return "standalone";
        }
        return tls == null ? "acl" : aclUser == null ? "tls" : "tls+acl";
    }

    /** Whether the server accepts only TLS connections (its plain-text port is closed). */
    public boolean isTls() {
        return tls != null;
    }

    /**
     * The PEM file of the CA that signed a TLS server's certificate, for clients to trust; empty without TLS. The
     * certificate names {@code 127.0.0.1} and {@code localhost}, so clients can verify the host name too.
     */
    public Optional<Path> caCertificate() {
        return tls == null ? Optional.empty() : Optional.of(tls.caCertificate());
    }

    /** The restricted user that {@link #newConnectionFactory(Duration)} logs in as; empty if there is none. */
    public Optional<AclUser> aclUser() {
        return Optional.ofNullable(aclUser);
    }

    /** A started Lettuce connection factory with a 2 s command timeout; destroyed when this server closes. */
    @Override
    public LettuceConnectionFactory newConnectionFactory() {
        return newConnectionFactory(DEFAULT_COMMAND_TIMEOUT);
    }

    /**
     * A started Lettuce connection factory with the given command (and connect) timeout. On a TLS server it uses TLS,
     * trusts only the test CA and verifies the host name; with an ACL user it logs in as that user.
     */
    @Override
    public LettuceConnectionFactory newConnectionFactory(Duration commandTimeout) {
        return factories.standalone(host(), port(), commandTimeout, tls, aclUser);
    }

    /**
     * {@code spring.data.redis.host} and {@code port}; with an ACL user also {@code username} and {@code password};
     * with TLS also {@code spring.data.redis.ssl.enabled=true}, {@code spring.data.redis.ssl.bundle=redis-harness} and
     * {@code spring.ssl.bundle.pem.redis-harness.truststore.certificate=file:<CA PEM>}.
     */
    @Override
    public Map<String, String> springProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.data.redis.host", host());
        properties.put("spring.data.redis.port", Integer.toString(port()));
        if (aclUser != null) {
            properties.put("spring.data.redis.username", aclUser.username());
            properties.put("spring.data.redis.password", aclUser.password());
        }
        if (tls != null) {
            properties.put("spring.data.redis.ssl.enabled", "true");
            properties.put("spring.data.redis.ssl.bundle", SSL_BUNDLE);
            properties.put(
                    "spring.ssl.bundle.pem." + SSL_BUNDLE + ".truststore.certificate",
                    "file:" + tls.caCertificate().toAbsolutePath());
        }
        return Collections.unmodifiableMap(properties);
    }

    /**
     * Calls per command since start or {@link #resetStats()}, from {@code INFO commandstats}: keys are the
     * lower-case names after {@code cmdstat_}, e.g. {@code get}, {@code evalsha}, {@code config|resetstat}.
     * Commands run inside Lua scripts count too, and so do the harness's own {@code info}, {@code ping},
     * {@code hello} and {@code client} calls.
     */
    @Override
    public Map<String, Long> commandStats() {
        return admin.commandStats();
    }

    /** Calls of one command, e.g. {@code commandCalls("set")}; 0 if it never ran. */
    @Override
    public long commandCalls(String command) {
        return commandStats().getOrDefault(command, 0L);
    }

    /** {@code CONFIG RESETSTAT}. */
    @Override
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
        String options = tls == null && aclUser == null ? "" : " " + name();
        return "RedisServer[" + provider().id() + " " + version + options + " at " + address() + "]";
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

    @Nullable
    TlsCertificates tls() {
        return tls;
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

    /** Fails at start, not in the first test, if the rules do not let the user log in with its password. */
    private void checkLogin(AclUser user) {
        try {
            admin.call(commands -> commands.auth(user.username(), user.password()));
        } catch (RuntimeException e) {
            throw new IllegalStateException(
                    "ACL user '" + user.username() + "' cannot log in with its password (" + e.getMessage()
                            + "); its rules must include 'on' and '>password': " + user.rules(),
                    e);
        }
    }

    private void requireDedicated(String operation) {
        if (shared) {
            throw new IllegalStateException(operation + " on the shared Redis server would break other tests; "
                    + "annotate the parameter with @Dedicated to get a server of its own");
        }
    }

    /**
     * Options for a standalone {@code redis-server} process; they compose, e.g. {@code tls().aclUser(...)}. A server
     * with options needs the {@link RedisProvider#PROCESS process} provider.
     */
    public static final class Builder {

        private boolean tls;
        private @Nullable AclUser aclUser;
        private boolean durable;

        private Builder() {}

        /**
         * Accept only TLS ({@code --port 0 --tls-port <port>}, no client certificates), with a certificate for
         * {@code 127.0.0.1} and {@code localhost} signed by a CA generated at start with the JDK's {@code keytool}.
         */
        public Builder tls() {
            this.tls = true;
            return this;
        }

        /**
         * Define an ACL user at start ({@code --user <username> <rules>}), e.g. {@code aclUser("app", "secret",
         * "on >secret ~app:* +get +set")}. The rules must turn the user on and set the password; start fails if the
         * user cannot log in. The {@code default} user keeps every permission for the harness's own commands.
         */
        public Builder aclUser(String username, String password, String rules) {
            this.aclUser = new AclUser(username, password, rules);
            return this;
        }

        /**
         * Keep every acknowledged write across {@link RedisServer#kill()} and {@link RedisServer#restart()}: an
         * append-only file synced before each reply ({@code --appendonly yes --appendfsync always}), as a production
         * server that must not lose its records is configured.
         */
        public Builder durable() {
            this.durable = true;
            return this;
        }

        /** Starts the server and waits until it answers PING (and the ACL user can log in). */
        public RedisServer start() {
            ServerOptions options = new ServerOptions(tls, aclUser, durable);
            if (options.isPlain()) {
                return RedisServer.start();
            }
            Launcher.requireProcessProvider("A Redis server with TLS, an ACL user or durability");
            RedisServer server = Launcher.process(options, port -> List.of(), false);
            Launcher.announce(server.provider(), server.version(), server.name() + " at " + server.address());
            return server;
        }
    }
}
