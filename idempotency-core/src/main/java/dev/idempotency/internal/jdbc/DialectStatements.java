package dev.idempotency.internal.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A store's statements, built for its database's dialect when the first connection tells which that is: a store is
 * made before its database need be reachable, and a database that is down at startup is only a failed call.
 */
public final class DialectStatements<T> {

    private final JdbcConnections connections;
    private final Function<SqlDialect, T> build;
    private volatile @Nullable T built;

    public DialectStatements(JdbcConnections connections, Function<SqlDialect, T> build) {
        this.connections = connections;
        this.build = build;
    }

    /** The statements for the database of {@code connection}. */
    public T on(Connection connection) throws SQLException {
        T current = built;
        if (current == null) {
            current = build.apply(connections.dialect(connection));
            built = current;
        }
        return current;
    }
}
