package dev.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * One real MariaDB server for the JVM: Debian's {@code mariadbd} (package {@code mariadb-server}), run as a child
 * process on a free loopback port with a data directory of its own, made by {@code mariadb-install-db}, and killed when
 * the JVM ends. Never the machine's own server. A missing {@code mariadbd}, or a failure to start, fails the test.
 */
public final class MariaDb {

    /** The database the tests use. */
    public static final String DATABASE = "idempotency";

    private static final long READY_SECONDS = 60;
    private static final int LOG_TAIL_LINES = 20;
    private static final int PORT = start();

    private MariaDb() {}

    /** The {@link #DATABASE} database of the server, user {@code root}; a new connection each time. */
    public static DataSource dataSource() {
        return open(jdbcUrl());
    }

    /** Connections to another database (schema) of the server, which must exist. */
    public static DataSource dataSource(String database) {
        return open(jdbcUrl(database));
    }

    /** The JDBC URL of the {@link #DATABASE} database, user {@code root}, e.g. for an application in another JVM. */
    public static String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    private static String jdbcUrl(String database) {
        return "jdbc:mariadb://" + RedisProcess.HOST + ":" + PORT + "/" + database + "?user=root";
    }

    private static DataSource open(String url) {
        try {
            return new MariaDbDataSource(url);
        } catch (SQLException ex) {
            throw new IllegalStateException("Not a MariaDB URL: " + url, ex);
        }
    }

    private static int start() {
        Path server = Executables.onPath("mariadbd")
                .or(() -> Optional.of(Path.of("/usr/sbin/mariadbd")).filter(Files::isExecutable))
                .orElseThrow(() -> new IllegalStateException("mariadbd is not on the PATH nor in /usr/sbin; it is"
                        + " needed for the JDBC store's tests on MariaDB (install the mariadb-server package)"));
        Path installer =
                Executables.require("mariadb-install-db", "the JDBC store's tests on MariaDB", "mariadb-server");
        int port = Ports.allocate(false);
        try {
            Path dir = ChildProcesses.createTempDirectory("mariadb-harness-" + port + "-");
            Path data = dir.resolve("data");
            Path log = dir.resolve("mariadb.log");
            String user = System.getProperty("user.name");
            // The server runs as the current user (root in CI, which mariadbd only accepts when told so).
            ChildProcesses.runToSuccess(
                    new ProcessBuilder(List.of(
                                    installer.toString(),
                                    "--no-defaults",
                                    "--datadir=" + data,
                                    "--user=" + user,
                                    "--auth-root-authentication-method=normal",
                                    "--skip-test-db"))
                            .redirectErrorStream(true)
                            .redirectOutput(Redirect.appendTo(log.toFile())),
                    log,
                    READY_SECONDS);
            Process process = ChildProcesses.start(new ProcessBuilder(List.of(
                            server.toString(),
                            "--no-defaults",
                            "--user=" + user,
                            "--datadir=" + data,
                            "--port=" + port,
                            "--bind-address=" + RedisProcess.HOST,
                            "--socket=" + dir.resolve("mariadb.sock"),
                            "--pid-file=" + dir.resolve("mariadb.pid"),
                            "--skip-log-bin",
                            "--character-set-server=utf8mb4",
                            "--collation-server=utf8mb4_unicode_ci",
                            "--max-connections=500",
                            "--innodb-buffer-pool-size=64M",
                            // a test server: what a crash of the machine would lose does not matter
                            "--innodb-flush-log-at-trx-commit=0",
                            "--innodb-doublewrite=0"))
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(log.toFile())));
            awaitReady(process, port, log);
            try (Connection connection =
                    DriverManager.getConnection("jdbc:mariadb://" + RedisProcess.HOST + ":" + port + "/?user=root")) {
                connection.createStatement().execute("CREATE DATABASE " + DATABASE);
            }
            return port;
        } catch (IOException ex) {
            throw new UncheckedIOException("Could not start mariadbd on port " + port, ex);
        } catch (SQLException ex) {
            throw new IllegalStateException("Could not create the test database on mariadbd, port " + port, ex);
        }
    }

    /** Waits, at most {@link #READY_SECONDS}, until the server takes a connection; fails with its log otherwise. */
    private static void awaitReady(Process process, int port, Path log) {
        String url = "jdbc:mariadb://" + RedisProcess.HOST + ":" + port + "/?user=root&connectTimeout=1000";
        try {
            Await.until(
                    Duration.ofSeconds(READY_SECONDS),
                    "mariadbd on port " + port + " to take connections",
                    () -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("mariadbd on port " + port + " exited\n" + tail(log));
                        }
                        try (Connection connection = DriverManager.getConnection(url)) {
                            return true;
                        } catch (SQLException notYet) {
                            return false;
                        }
                    },
                    () -> tail(log));
        } catch (RuntimeException | AssertionError ex) {
            ChildProcesses.kill(process);
            throw ex;
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "mariadbd log tail (" + log + "):\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException ex) {
            return "(no mariadbd log at " + log + ")";
        }
    }
}
