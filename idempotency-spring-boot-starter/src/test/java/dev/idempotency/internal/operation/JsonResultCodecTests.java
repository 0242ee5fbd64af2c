package dev.idempotency.internal.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class JsonResultCodecTests {

    private final JsonMapper jsonMapper = JsonMapper.builder().build();
    private final JsonResultCodec codec = new JsonResultCodec(
            jsonMapper, jsonMapper.getTypeFactory().constructCollectionType(List.class, Item.class));

    record Item(String name, int count) {}

    /** Serializing it fails: it shows whether an element was encoded at all. */
    static final class Unserializable {
        public String getBoom() {
            throw new IllegalStateException("encoded");
        }
    }

    @Test
    void aListEncodedElementByElementIsTheListEncodedWhole() {
        List<Item> items = List.of(new Item("a", 1), new Item("b\"quoted\"", 2), new Item("c", 3));
        JsonResultCodec.ListEncoding encoding = codec.encodeList(1024);
        items.forEach(encoding::add);
        byte[] encoded = encoding.finish();
        assertThat(encoded).isEqualTo(codec.encode(items));
        assertThat(codec.decode(encoded)).isEqualTo(items);
        assertThat(codec.encodeList(1024).finish()).as("no elements").isEqualTo(codec.encode(List.of()));
    }

    @Test
    void pastTheLimitNothingMoreIsEncodedOrHeld() {
        JsonResultCodec.ListEncoding encoding = codec.encodeList(40);
        encoding.add(new Item("first", 1)); // 24 bytes with the bracket
        encoding.add(new Item("second", 2)); // past 40
        encoding.add(new Unserializable()); // would throw if it were still encoded
        assertThat(encoding.finish()).as("over the limit: not kept").isNull();
    }

    @Test
    void aListThatEndsExactlyAtTheLimitIsKept() {
        byte[] whole = codec.encode(List.of(new Item("a", 1)));
        JsonResultCodec.ListEncoding encoding = codec.encodeList(whole.length);
        encoding.add(new Item("a", 1));
        assertThat(encoding.finish()).isEqualTo(whole);
    }
}
