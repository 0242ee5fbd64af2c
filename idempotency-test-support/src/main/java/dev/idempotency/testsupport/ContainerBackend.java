package dev.idempotency.testsupport;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** A {@code redis:7.0} container; Testcontainers' own reaper removes it if the JVM dies. */
final class ContainerBackend implements ServerBackend {

    private static final int CONTAINER_PORT = 6379;

    private final GenericContainer<?> container;

    private ContainerBackend(GenericContainer<?> container) {
        this.container = container;
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static ContainerBackend start() {
        if (!dockerAvailable()) {
            throw new IllegalStateException("Docker is not available to Testcontainers");
        }
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse("redis:7.0"))
                .withExposedPorts(CONTAINER_PORT)
                .withCommand("redis-server", "--save", "", "--appendonly", "no");
        container.start();
        return new ContainerBackend(container);
    }

    @Override
    public RedisProvider provider() {
        return RedisProvider.TESTCONTAINERS;
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return container.getMappedPort(CONTAINER_PORT);
    }

    @Override
    public void stop() {
        container.stop();
    }

    @Override
    public void close() {
        container.stop();
    }
}
