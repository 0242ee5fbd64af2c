package dev.idempotency.internal.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The streaming canonical form is the tree's, byte for byte, so that fingerprints stored before it stay valid: over
 * generated documents ({@link JsonDocuments}), with and without selected fields, the fingerprint part it adds is the
 * one {@link TreeCanonicalJson} adds; where the tree threw (an exponent BigDecimal cannot hold), the bytes are compared
 * as received.
 */
class CanonicalJsonTests {

    @Property(tries = 3000)
    void theWholeDocumentFingerprintsAsTheTreeDid(@ForAll("texts") String text) {
        assertSameAsTheTree(text, PayloadFields.ALL);
    }

    @Property(tries = 1500)
    void selectedFieldsFingerprintAsTheTreeDid(
            @ForAll("texts") String text, @ForAll("pointers") List<String> pointers) {
        assertSameAsTheTree(text, PayloadFields.of(pointers));
    }

    @Example
    void knownFormsOfTheTree() {
        assertCanonical(
                "{\"b\":1,\"a\":{\"d\":[1,{\"z\":0,\"y\":1}],\"c\":2}}",
                "{\"a\":{\"c\":2,\"d\":[1,{\"y\":1,\"z\":0}]},\"b\":1}");
        assertCanonical(" -0 ", "0");
        assertCanonical(
                "[-0.0, 1e5, 1.0e5, 1.50, 0.00000001, 0.0000001, 0.000001, -0e-5, 0.000e3, 1E-400]",
                "[0.0,1E+5,1.0E+5,1.50,1E-8,1E-7,0.000001,0.00000,0,1E-400]");
        assertCanonical("\"\\u0001\\u001f\\b\\/\\ud800\\ud83d\\ude00\"", "\"\\u0001\\u001F\\b/\\uD800\uD83D\uDE00\"");
        assertCanonical("{\"é\":1,\"_\":2,\"B\":3,\"\":4}", "{\"\":4,\"B\":3,\"_\":2,\"é\":1}");
        assertCanonical(" \n", "null");
    }

    @Example
    void documentsWithoutACanonicalFormAreComparedAsReceived() {
        for (String text : List.of("{\"a\":1,\"\\u0061\":2}", "{} {}", "[1,]", "{\"a\":1", "01", "1e2147483648")) {
            Fingerprint streamed = new Fingerprint();
            boolean added = CanonicalJson.addTo(streamed, 'b', bytes(text), PayloadFields.ALL);
            assertThat(added).as(text).isFalse();
        }
    }

    @Example
    void selectedFieldsAreOneObjectNamedByThePointers() {
        PayloadFields fields = PayloadFields.of(List.of("/items/1", "/amount", "/missing", "/amount"));
        assertThat(digest("{\"items\":[{\"b\":1},{\"y\":2,\"x\":1}],\"amount\":1.50,\"note\":\"x\"}", fields))
                .isEqualTo(digestOf("{\"/amount\":1.50,\"/items/1\":{\"x\":1,\"y\":2}}"));
    }

    @Provide
    Arbitrary<String> texts() {
        return JsonDocuments.texts();
    }

    @Provide
    Arbitrary<List<String>> pointers() {
        return JsonDocuments.pointers();
    }

    private static void assertSameAsTheTree(String text, PayloadFields fields) {
        byte[] json = bytes(text);
        Fingerprint tree = new Fingerprint();
        byte[] canonical;
        try {
            canonical = TreeCanonicalJson.canonical(json, fields);
        } catch (NumberFormatException ex) {
            canonical = null; // the tree threw; the stream compares the bytes as received
        }
        tree.add('b', canonical != null ? canonical : json);
        Fingerprint streamed = new Fingerprint();
        if (!CanonicalJson.addTo(streamed, 'b', json, fields)) {
            streamed.add('b', json);
        }
        assertThat(streamed.digest())
                .as(
                        "%s with %s; the tree wrote %s",
                        text, fields, canonical == null ? "nothing" : new String(canonical, StandardCharsets.UTF_8))
                .isEqualTo(tree.digest());
    }

    private static void assertCanonical(String text, String canonical) {
        assertThat(digest(text, PayloadFields.ALL)).as(text).isEqualTo(digestOf(canonical));
        assertSameAsTheTree(text, PayloadFields.ALL);
    }

    private static String digest(String text, PayloadFields fields) {
        Fingerprint fingerprint = new Fingerprint();
        assertThat(CanonicalJson.addTo(fingerprint, 'b', bytes(text), fields))
                .as(text)
                .isTrue();
        return fingerprint.digest();
    }

    private static String digestOf(String canonical) {
        return new Fingerprint().add('b', bytes(canonical)).digest();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
