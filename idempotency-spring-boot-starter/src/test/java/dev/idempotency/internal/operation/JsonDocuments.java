package dev.idempotency.internal.operation;

import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * JSON texts as clients send them, for {@link CanonicalJsonTests}: nested objects and arrays whose member names repeat
 * now and then and come in any order, strings with every kind of character written raw or escaped (control characters,
 * quotes, backslashes, slashes, non-ASCII, surrogate pairs, unpaired surrogates), integers and decimals in every
 * notation (negative zero, leading zeros in the fraction and the exponent, exponents near the limits), white space
 * anywhere; and now and then no document at all (only white space, two documents, a document cut short).
 */
final class JsonDocuments {

    private static final List<String> NAMES =
            List.of("a", "b", "B", "_", "id", "items", "é", "😀", "\uffff", "", "0", "1", "10", "a\u0000", "a/b", "~");

    private static final List<Character> CHARS = List.of(
            'a', 'Z', '0', ' ', '"', '\\', '/', '\u0000', '\u0001', '\b', '\t', '\n', '\f', '\r', '\u001f', '\u007f',
            'é', '\u07ff', '€', '\u2028', '\ufffd', '\uffff', '\ud83d', '\ude00', '\ud800', '\udfff');

    private JsonDocuments() {}

    /** A text that is usually one JSON document. */
    static Arbitrary<String> texts() {
        Arbitrary<String> document = value(4);
        return Arbitraries.frequencyOf(
                Tuple.of(20, document.flatMap(json -> space().map(after -> json + after))),
                Tuple.of(1, space()),
                Tuple.of(1, Combinators.combine(document, document).as((one, two) -> one + " " + two)),
                Tuple.of(
                        2,
                        document.flatMap(json ->
                                Arbitraries.integers().between(0, json.length()).map(cut -> json.substring(0, cut)))));
    }

    private static Arbitrary<String> value(int depth) {
        Arbitrary<String> scalar =
                Arbitraries.oneOf(string(), integer(), decimal(), Arbitraries.of("true", "false", "null"));
        if (depth == 0) {
            return scalar;
        }
        return Arbitraries.frequencyOf(
                Tuple.of(3, scalar),
                Tuple.of(1, Arbitraries.lazy(() -> array(depth - 1))),
                Tuple.of(2, Arbitraries.lazy(() -> object(depth - 1))));
    }

    private static Arbitrary<String> array(int depth) {
        return Combinators.combine(value(depth).list().ofMaxSize(4), space())
                .as((values, space) -> "[" + space + String.join("," + space, values) + "]");
    }

    private static Arbitrary<String> object(int depth) {
        Arbitrary<String> member = Combinators.combine(name(), space(), value(depth))
                .as((name, space, value) -> name + space + ":" + space + value);
        return Combinators.combine(member.list().ofMaxSize(5), space())
                .as((members, space) -> "{" + space + String.join(space + ",", members) + space + "}");
    }

    private static Arbitrary<String> name() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(NAMES).flatMap(JsonDocuments::written)),
                Tuple.of(
                        2,
                        Arbitraries.strings()
                                .withCharRange('a', 'e')
                                .ofMaxLength(3)
                                .flatMap(JsonDocuments::written)),
                Tuple.of(1, string()));
    }

    private static Arbitrary<String> string() {
        return Arbitraries.of(CHARS)
                .map(String::valueOf)
                .list()
                .ofMaxSize(8)
                .map(parts -> String.join("", parts))
                .flatMap(JsonDocuments::written);
    }

    /** {@code text} as a JSON string, each character written raw where JSON allows it, or escaped either way. */
    private static Arbitrary<String> written(String text) {
        return Arbitraries.integers().between(0, 2).list().ofSize(text.length()).map(ways -> {
            StringBuilder json = new StringBuilder("\"");
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                boolean pair = i + 1 < text.length() && Character.isSurrogatePair(c, text.charAt(i + 1));
                if (pair && ways.get(i) == 0) {
                    json.append(c).append(text.charAt(++i)); // raw: four bytes of UTF-8
                } else {
                    json.append(character(c, ways.get(i)));
                }
            }
            return json.append('"').toString();
        });
    }

    private static String character(char c, int way) {
        boolean mustEscape = c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c);
        if (way == 0 && !mustEscape) {
            return String.valueOf(c);
        }
        String hex = String.format("%04x", (int) c);
        if (way == 1) {
            return "\\u" + hex;
        }
        return switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '/' -> "\\/";
            case '\n' -> "\\n";
            case '\t' -> "\\t";
            default -> "\\u" + hex.toUpperCase(Locale.ROOT);
        };
    }

    private static Arbitrary<String> integer() {
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.of("0", "-0")),
                Tuple.of(
                        4,
                        Combinators.combine(Arbitraries.of("", "-"), digits(1, 25))
                                .as((sign, digits) -> sign + digits)));
    }

    private static Arbitrary<String> decimal() {
        Arbitrary<String> whole =
                Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just("0")), Tuple.of(2, digits(1, 12)));
        Arbitrary<String> fraction = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just("")),
                Tuple.of(
                        3,
                        Arbitraries.strings()
                                .numeric()
                                .ofMinLength(1)
                                .ofMaxLength(14)
                                .map(f -> "." + f)),
                Tuple.of(
                        2,
                        Combinators.combine(Arbitraries.integers().between(4, 9), digits(1, 3))
                                .as((zeros, f) -> "." + "0".repeat(zeros) + f)));
        Arbitrary<String> exponent = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just("")),
                Tuple.of(3, exponent(1, 3)),
                Tuple.of(
                        1,
                        Arbitraries.of(
                                "e2147483647",
                                "E-2147483647",
                                "e-2147483648",
                                "e999999999",
                                "e-999999999",
                                "e1000000000",
                                "e-1000000001",
                                "e0000000000000",
                                "e99999999999")));
        return Combinators.combine(Arbitraries.of("", "-"), whole, fraction, exponent)
                .as((sign, w, f, e) -> sign + w + f + e)
                .filter(number ->
                        number.contains(".") || number.toLowerCase(Locale.ROOT).contains("e"));
    }

    private static Arbitrary<String> exponent(int minDigits, int maxDigits) {
        return Combinators.combine(
                        Arbitraries.of("e", "E"),
                        Arbitraries.of("", "+", "-"),
                        Arbitraries.strings().numeric().ofMinLength(minDigits).ofMaxLength(maxDigits))
                .as((e, sign, digits) -> e + sign + digits);
    }

    /** Digits without a leading zero, as JSON writes an integer part. */
    private static Arbitrary<String> digits(int min, int max) {
        return Combinators.combine(
                        Arbitraries.chars().range('1', '9'),
                        Arbitraries.strings().numeric().ofMaxLength(max - min))
                .as((first, rest) -> first + rest);
    }

    private static Arbitrary<String> space() {
        return Arbitraries.of("", "", "", " ", "\n\t ", "\r\n");
    }

    /** One to four pointers into such documents, now and then the same one twice. */
    static Arbitrary<List<String>> pointers() {
        return Arbitraries.of(
                        "/a",
                        "/b",
                        "/B",
                        "/id",
                        "/items",
                        "/items/0",
                        "/items/1",
                        "/a/b",
                        "/a/0",
                        "/0",
                        "/1",
                        "/10",
                        "/",
                        "/~0",
                        "/a~1b",
                        "/é",
                        "/😀",
                        "/items/-",
                        "/items/01",
                        "/a/b/c")
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }
}
