package dev.idempotency.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What {@link RedisServer.Builder} adds to a plain {@code redis-server} process: TLS only, an ACL user, durability (an
 * append-only file synced on every write, so that a killed server restarts with every write it acknowledged).
 */
final class ServerOptions {

    static final ServerOptions NONE = new ServerOptions(false, null, false);

    final boolean tls;
    final @Nullable AclUser aclUser;
    final boolean durable;

    ServerOptions(boolean tls, @Nullable AclUser aclUser, boolean durable) {
        this.tls = tls;
        this.aclUser = aclUser;
        this.durable = durable;
    }

    boolean isPlain() {
        return !tls && aclUser == null && !durable;
    }

    /** Writes the certificates (for TLS) into the process's directory and returns the options to start it with. */
    List<String> prepare(int port, Path dir) throws IOException {
        List<String> arguments = new ArrayList<>();
        if (tls) {
            arguments.addAll(TlsCertificates.in(dir).generate().serverArguments(port));
        }
        if (aclUser != null) {
            arguments.addAll(aclUser.serverArguments());
        }
        if (durable) {
            // Later options win over the harness's "--appendonly no"; "always" syncs before the reply is sent.
            arguments.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        }
        return arguments;
    }

    /** The certificates {@link #prepare} wrote into {@code dir}, or {@code null} without TLS. */
    @Nullable
    TlsCertificates certificates(Path dir) {
        return tls ? TlsCertificates.in(dir) : null;
    }
}
