package dev.idempotency.internal.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script sent by its SHA-1 ({@code EVALSHA}); Redis gets the text ({@code EVAL}) only the first time, or again
 * after a restart or {@code SCRIPT FLUSH}.
 *
 * @param text the script
 * @param sha1 its SHA-1 in lower-case hex, as Redis names it
 */
public record LuaScript(String text, String sha1) {

    public static LuaScript of(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return new LuaScript(text, HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", ex);
        }
    }
}
