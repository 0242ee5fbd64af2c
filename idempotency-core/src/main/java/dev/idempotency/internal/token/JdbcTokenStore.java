package dev.idempotency.internal.token;

import dev.idempotency.internal.jdbc.DialectStatements;
import dev.idempotency.internal.jdbc.JdbcConnections;
import dev.idempotency.internal.jdbc.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Tokens in the JDBC record store's table, beside the {@code REQUEST_ID} records (their keys never meet): one row a
 * token, {@code state} {@code V} while valid and {@code U} once used, {@code owner} the mark of the submit that used it,
 * {@code expires_at} the end of its time to live (then it is unknown, and purged with the records). Each statement
 * commits at once on a connection of its own, on the store's threads: a consume is visible to a double click before
 * its work starts, and a token given back after a rollback really is valid again. A first consume costs one statement;
 * a caller that waits for it anyway may run it on its own thread ({@link #onWaitingThread}).
 */
public final class JdbcTokenStore implements TokenStore {

    /** How often a consume looks again when the token it found used was given back meanwhile. */
    private static final int ATTEMPTS = 3;

    private final JdbcConnections connections;
    private final DialectStatements<Statements> statements;
    private final boolean here;
    private final JdbcTokenStore onWaitingThread;

    /** @param table the records' table, checked by {@code JdbcStore} */
    public JdbcTokenStore(JdbcConnections connections, String table) {
        this.connections = connections;
        this.statements = new DialectStatements<>(connections, dialect -> new Statements(dialect, table));
        this.here = false;
        this.onWaitingThread = new JdbcTokenStore(this);
    }

    /** The view of {@code shared} whose statements run on the caller's thread when a store thread is free. */
    private JdbcTokenStore(JdbcTokenStore shared) {
        this.connections = shared.connections;
        this.statements = shared.statements;
        this.here = true;
        this.onWaitingThread = this;
    }

    @Override
    public TokenStore onWaitingThread() {
        return onWaitingThread;
    }

    /** Runs a statement: on the store's threads, or, for a waiting caller, maybe on the caller's. */
    private <T> CompletableFuture<T> run(String kind, JdbcConnections.Statement<T> statement) {
        return here ? connections.here(kind, statement) : connections.async(kind, statement);
    }

    /** The token statements in a database's dialect. */
    private record Statements(String issue, String consume, String read, String restore, String restoreOwn) {

        Statements(SqlDialect dialect, String table, String restore) {
            this(
                    "INSERT INTO " + table + " (record_key, state, fingerprint, expires_at) VALUES (?, 'V', '', "
                            + dialect.later() + ")",
                    "UPDATE " + table + " SET owner = ?, state = 'U'"
                            + " WHERE record_key = ? AND state = 'V' AND expires_at > " + dialect.now(),
                    "SELECT state, owner FROM " + table + " WHERE record_key = ? AND state IN ('V', 'U')"
                            + " AND expires_at > " + dialect.now(),
                    restore,
                    restore + " AND owner = ?");
        }

        Statements(SqlDialect dialect, String table) {
            this(
                    dialect,
                    table,
                    "UPDATE " + table + " SET owner = NULL, state = 'V'"
                            + " WHERE record_key = ? AND state = 'U' AND expires_at > " + dialect.now());
        }
    }

    @Override
    public CompletableFuture<Void> issue(String key, Duration ttl) {
        return run("issue", connection -> {
            connections.update(connection, statements.on(connection).issue(), key, ttl.toMillis());
            return null;
        });
    }

    @Override
    public CompletableFuture<Use> consume(String key, String mark) {
        return run("consume", connection -> {
            for (int attempt = 1; ; attempt++) {
                if (connections.update(connection, statements.on(connection).consume(), mark, key) == 1) {
                    return Use.CONSUMED;
                }
                Use found = found(connection, key, mark);
                // A token found valid was given back since the update missed it: try again, a few times.
                if (found != null || attempt == ATTEMPTS) {
                    return found != null ? found : Use.USED_BEFORE;
                }
            }
        });
    }

    /** What a consume that changed nothing found; {@code null} when the token is valid (again). */
    private @Nullable Use found(Connection connection, String key, String mark) throws SQLException {
        try (PreparedStatement statement = connections.prepare(
                        connection, statements.on(connection).read(), key);
                ResultSet row = statement.executeQuery()) {
            if (!row.next()) {
                return Use.UNKNOWN;
            }
            if ("V".equals(row.getString(1))) {
                return null;
            }
            // Our own mark: the consume was sent again after its answer was lost, and it is ours.
            return mark.equals(row.getString(2)) ? Use.CONSUMED : Use.USED_BEFORE;
        }
    }

    @Override
    public CompletableFuture<Void> restore(String key) {
        return run("restore", connection -> {
            connections.update(connection, statements.on(connection).restore(), key);
            return null;
        });
    }

    @Override
    public CompletableFuture<Boolean> restore(String key, String mark) {
        return run(
                "restore",
                connection ->
                        connections.update(connection, statements.on(connection).restoreOwn(), key, mark) == 1);
    }
}
