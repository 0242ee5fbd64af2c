package dev.idempotency.testsupport;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/** Chooses a provider and starts servers with it; the {@code auto} fallback order lives here. */
final class Launcher {

    private static final int PORT_RACE_ATTEMPTS = 3;

    private Launcher() {}

    static RedisServer standalone(RedisProvider requested) {
        // auto tries process, testcontainers, embedded in turn; a provider that cannot work here (no redis-server
        // on the PATH and no bundled binary for this platform, no Docker) fails fast and the next one gets its chance.
        List<RedisProvider> candidates = requested == RedisProvider.AUTO
                ? List.of(RedisProvider.PROCESS, RedisProvider.TESTCONTAINERS, RedisProvider.EMBEDDED)
                : List.of(requested);
        List<RuntimeException> failures = new ArrayList<>();
        for (RedisProvider provider : candidates) {
            try {
                return startWith(provider);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        StringBuilder message = new StringBuilder("Could not start a Redis server (" + RedisProvider.PROPERTY + "="
                + requested.id() + ", tried " + candidates + "):");
        for (int i = 0; i < failures.size(); i++) {
            message.append("\n  ")
                    .append(candidates.get(i).id())
                    .append(": ")
                    .append(failures.get(i).getMessage());
        }
        IllegalStateException failure = new IllegalStateException(message.toString());
        failures.forEach(failure::addSuppressed);
        throw failure;
    }

    private static RedisServer startWith(RedisProvider provider) {
        switch (provider) {
            case PROCESS:
                return process(port -> List.of(), false);
            case TESTCONTAINERS:
                return RedisServer.open(ContainerBackend.start());
            case EMBEDDED:
                return RedisServer.open(EmbeddedBackend.start());
            default:
                throw new IllegalArgumentException("Not a concrete provider: " + provider);
        }
    }

    /**
     * Starts a {@code redis-server} process on a free port. Another program can grab the port between
     * our check and Redis binding it, so "Address already in use" is retried on a fresh port.
     */
    static RedisServer process(IntFunction<List<String>> extraArgs, boolean clusterBus) {
        return process(ServerOptions.NONE, extraArgs, clusterBus);
    }

    /** Like {@link #process(IntFunction, boolean)}, with TLS and ACL options prepared in the process's directory. */
    static RedisServer process(ServerOptions options, IntFunction<List<String>> extraArgs, boolean clusterBus) {
        return onFreePort(clusterBus, port -> {
            RedisProcess process = RedisProcess.launch(port, dir -> {
                List<String> arguments = new ArrayList<>(options.prepare(port, dir));
                arguments.addAll(extraArgs.apply(port));
                return RedisProcess.Arguments.of(arguments);
            });
            return RedisServer.open(process, options.certificates(process.dir()), options.aclUser);
        });
    }

    /**
     * Starts {@code redis-server <dir>/sentinel.conf --sentinel} with the given config file contents. Sentinel
     * rewrites that file with what it learns, so it lives in the process's writable temp directory.
     */
    static RedisServer sentinel(IntFunction<String> config) {
        return onFreePort(
                false,
                port -> RedisServer.open(RedisProcess.launch(port, dir -> {
                    Path file = dir.resolve("sentinel.conf");
                    Files.writeString(file, config.apply(port), StandardCharsets.UTF_8);
                    return RedisProcess.Arguments.withConfigFile(file, List.of("--sentinel"));
                })));
    }

    private static RedisServer onFreePort(boolean clusterBus, IntFunction<RedisServer> start) {
        for (int attempt = 1; ; attempt++) {
            int port = Ports.allocate(clusterBus);
            try {
                return start.apply(port);
            } catch (IllegalStateException e) {
                boolean lostRace = String.valueOf(e.getMessage()).contains("Address already in use");
                if (!lostRace || attempt == PORT_RACE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /** Replica pairs and clusters exist only as processes; fail clearly for any other provider. */
    static void requireProcessProvider(String feature) {
        RedisProvider configured = RedisProvider.configured();
        if (configured == RedisProvider.TESTCONTAINERS || configured == RedisProvider.EMBEDDED) {
            throw new UnsupportedOperationException(feature + " is only supported by the 'process' Redis provider, but "
                    + RedisProvider.PROPERTY + "=" + configured.id());
        }
    }

    /** The one stdout line per started topology, so a test log shows what it ran against. */
    static void announce(RedisProvider provider, String version, String what) {
        String binary = provider == RedisProvider.PROCESS ? " (" + RedisBinary.source() + ")" : "";
        System.out.println(
                "[redis-harness] provider=" + provider.id() + " redis-server " + version + binary + " " + what);
    }
}
