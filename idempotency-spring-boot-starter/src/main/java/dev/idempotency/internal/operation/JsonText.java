package dev.idempotency.internal.operation;

import java.util.Arrays;
import tools.jackson.core.JsonParser;

/**
 * A growable UTF-8 buffer that writes JSON text exactly as Jackson's tree wrote it for the canonical form: strings with
 * Jackson's escapes ({@code \"}, {@code \\}, {@code \b \t \n \f \r}, other control characters and unpaired surrogates
 * as {@code \}{@code u} with upper-case hex; everything else as UTF-8), integers as their value ({@code -0} is
 * {@code 0}), and other numbers as {@link java.math.BigDecimal#toString()} writes the number's value and scale
 * ({@code 1e5} is {@code 1E+5}, {@code 0.00000001} is {@code 1E-8}, {@code 1.50} stays), without making one.
 */
final class JsonText {

    private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};

    private byte[] bytes = new byte[512];
    private int length;
    private char[] chars = new char[64];

    void reset() {
        length = 0;
    }

    void release(int keptBytes) {
        if (bytes.length > keptBytes) {
            bytes = new byte[512];
        }
        if (chars.length > keptBytes) {
            chars = new char[64];
        }
    }

    byte[] array() {
        return bytes;
    }

    int length() {
        return length;
    }

    void truncate(int newLength) {
        length = newLength;
    }

    void put(char ascii) {
        room(1);
        bytes[length++] = (byte) ascii;
    }

    void bytes(byte[] source) {
        bytes(source, 0, source.length);
    }

    void bytes(byte[] source, int offset, int count) {
        room(count);
        System.arraycopy(source, offset, bytes, length, count);
        length += count;
    }

    /** A member name as a JSON string. */
    void string(String text) {
        int count = text.length();
        char[] copy = scratch(count);
        text.getChars(0, count, copy, 0);
        string(copy, 0, count);
    }

    void string(char[] text, int offset, int count) {
        put('"');
        int end = offset + count;
        for (int i = offset; i < end; i++) {
            room(6); // the longest a char becomes: an escape, or two of four bytes for a pair
            char c = text[i];
            if (c < 0x80) {
                if (c < 0x20 || c == '"' || c == '\\') {
                    escape(c);
                } else {
                    bytes[length++] = (byte) c;
                }
            } else if (c < 0x800) {
                bytes[length++] = (byte) (0xC0 | (c >> 6));
                bytes[length++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text[i + 1])) {
                int point = Character.toCodePoint(c, text[++i]);
                bytes[length++] = (byte) (0xF0 | (point >> 18));
                bytes[length++] = (byte) (0x80 | ((point >> 12) & 0x3F));
                bytes[length++] = (byte) (0x80 | ((point >> 6) & 0x3F));
                bytes[length++] = (byte) (0x80 | (point & 0x3F));
            } else if (Character.isSurrogate(c)) {
                unicodeEscape(c);
            } else {
                bytes[length++] = (byte) (0xE0 | (c >> 12));
                bytes[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                bytes[length++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        put('"');
    }

    private void escape(char c) {
        char shortForm = switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '\b' -> 'b';
            case '\t' -> 't';
            case '\n' -> 'n';
            case '\f' -> 'f';
            case '\r' -> 'r';
            default -> 0;
        };
        if (shortForm == 0) {
            unicodeEscape(c);
        } else {
            bytes[length++] = '\\';
            bytes[length++] = (byte) shortForm;
        }
    }

    private void unicodeEscape(char c) {
        bytes[length++] = '\\';
        bytes[length++] = 'u';
        bytes[length++] = HEX[(c >> 12) & 0xF];
        bytes[length++] = HEX[(c >> 8) & 0xF];
        bytes[length++] = HEX[(c >> 4) & 0xF];
        bytes[length++] = HEX[c & 0xF];
    }

    /** The integer the parser is on: its digits as written, but {@code -0} as {@code 0}. */
    void integer(JsonParser parser) {
        int count = parser.getTextLength();
        parser.streamReadConstraints().validateIntegerLength(count);
        char[] text = parser.getTextCharacters();
        int offset = parser.getTextOffset();
        if (count == 2 && text[offset] == '-' && text[offset + 1] == '0') {
            put('0');
            return;
        }
        ascii(text, offset, count);
    }

    /** The non-integer number the parser is on, as {@link java.math.BigDecimal#toString()} writes it. */
    void decimal(JsonParser parser) {
        int count = parser.getTextLength();
        parser.streamReadConstraints().validateFPLength(count);
        if (!JsonDecimal.layout(this, parser.getTextCharacters(), parser.getTextOffset(), count)) {
            String written = parser.getDecimalValue().toString(); // extreme exponents: Jackson decides, or fails
            room(written.length());
            for (int i = 0; i < written.length(); i++) {
                bytes[length++] = (byte) written.charAt(i);
            }
        }
    }

    void ascii(char[] text, int offset, int count) {
        room(count);
        for (int i = 0; i < count; i++) {
            bytes[length++] = (byte) text[offset + i];
        }
    }

    void digits(long value) {
        room(20);
        if (value < 0) {
            bytes[length++] = '-';
            value = -value;
        }
        int from = length;
        do {
            bytes[length++] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value > 0);
        for (int i = from, j = length - 1; i < j; i++, j--) {
            byte digit = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = digit;
        }
    }

    /** Scratch chars of at least {@code count}, overwritten by the next string or number. */
    char[] scratch(int count) {
        if (chars.length < count) {
            chars = new char[Math.max(count, chars.length * 2)];
        }
        return chars;
    }

    void room(int count) {
        if (length + count > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + count, bytes.length * 2));
        }
    }
}
