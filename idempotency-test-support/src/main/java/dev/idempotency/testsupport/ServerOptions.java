package dev.idempotency.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** What {@link RedisServer.Builder} adds to a plain {@code redis-server} process: TLS only, an ACL user. */
final class ServerOptions {

    static final ServerOptions NONE = new ServerOptions(false, null);

    final boolean tls;
    final @Nullable AclUser aclUser;

    ServerOptions(boolean tls, @Nullable AclUser aclUser) {
        this.tls = tls;
        this.aclUser = aclUser;
    }

    boolean isPlain() {
        return !tls && aclUser == null;
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
        return arguments;
    }

    /** The certificates {@link #prepare} wrote into {@code dir}, or {@code null} without TLS. */
    @Nullable
    TlsCertificates certificates(Path dir) {
        return tls ? TlsCertificates.in(dir) : null;
    }
}
