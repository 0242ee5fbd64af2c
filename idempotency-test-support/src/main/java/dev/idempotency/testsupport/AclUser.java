package dev.idempotency.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Redis ACL user that a server started with {@link RedisServer.Builder#aclUser(String, String, String)} defines at
 * start ({@code --user <name> <rules>}). The {@code rules} are Redis ACL rules separated by spaces, e.g.
 * {@code on >secret ~app:* +get +set}; they must turn the user {@code on} and include {@code >password}. Passwords
 * with spaces are not supported.
 */
public final class AclUser {

    private final String username;
    private final String password;
    private final String rules;

    AclUser(String username, String password, String rules) {
        this.username = Objects.requireNonNull(username, "username");
        this.password = Objects.requireNonNull(password, "password");
        this.rules = Objects.requireNonNull(rules, "rules").trim();
        if (username.isBlank() || username.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("An ACL user name must be a single word, not '" + username + "'");
        }
        if (this.rules.isEmpty()) {
            throw new IllegalArgumentException(
                    "ACL user '" + username + "' needs rules, e.g. on >password ~key:* +get");
        }
    }

    /** The name to authenticate as. */
    public String username() {
        return username;
    }

    /** The password to authenticate with. */
    public String password() {
        return password;
    }

    /** The ACL rules exactly as given, e.g. {@code on >secret ~app:* +get +set}. */
    public String rules() {
        return rules;
    }

    /** {@code --user <name> <rule> <rule> ...}: redis-server turns command-line options into config lines. */
    List<String> serverArguments() {
        List<String> arguments = new ArrayList<>(List.of("--user", username));
        arguments.addAll(List.of(rules.split("\\s+")));
        return arguments;
    }

    @Override
    public String toString() {
        // The rules hold the password anyway; a test that prints its server should still not print secrets.
        return "AclUser[" + username + "]";
    }
}
