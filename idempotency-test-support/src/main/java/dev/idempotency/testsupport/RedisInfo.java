package dev.idempotency.testsupport;

/** Reads the {@code name:value} lines of Redis {@code INFO} output, as the harness and the scenarios check servers. */
public final class RedisInfo {

    private RedisInfo() {}

    /** The value of {@code name:value} in {@code info}, trimmed, or {@code ""} when there is no such line. */
    public static String field(String info, String name) {
        return info.lines()
                .filter(line -> line.startsWith(name + ":"))
                .map(line -> line.substring(name.length() + 1).trim())
                .findFirst()
                .orElse("");
    }
}
