package dev.idempotency.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HeldBodyTests {

    @Test
    void holdsEveryByteWrittenInWritesOfAnySize() throws IOException {
        Random random = new Random(42);
        byte[] answer = new byte[300_000];
        random.nextBytes(answer);
        HeldBody body = new HeldBody();
        int offset = 0;
        while (offset < answer.length) {
            int length = Math.min(answer.length - offset, random.nextInt(20_000));
            body.write(answer, offset, length);
            offset += length;
        }
        assertThat(body.size()).isEqualTo(answer.length);
        assertThat(body.toByteArray()).isEqualTo(answer);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        body.writeTo(sent);
        assertThat(sent.toByteArray()).isEqualTo(answer);
        body.clear();
        assertThat(body.size()).isZero();
        assertThat(body.toByteArray()).isEmpty();
    }

    @Test
    void aBodyOfAnArrayHoldsItWithoutCopyingAndTakesMoreWritesAfterIt() {
        byte[] bytes = {1, 2, 3};
        HeldBody body = HeldBody.of(bytes);
        body.write(new byte[] {4, 5}, 0, 2);
        assertThat(body.toByteArray()).containsExactly(1, 2, 3, 4, 5);
        assertThat(bytes).as("the array it was made of is untouched").containsExactly(1, 2, 3);
    }

    @Test
    void aRecordEncodedFromAHeldBodyIsTheRecordOfTheWholeResponse() {
        List<StoredResponse.Header> headers = List.of(
                new StoredResponse.Header("Content-Type", "application/json"), new StoredResponse.Header("X-A", "b"));
        byte[] json = "{\"id\":42}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HeldBody held = new HeldBody();
        held.write(json, 0, 4);
        held.write(json, 4, json.length - 4);
        byte[] encoded = StoredResponse.encode(201, headers, held);
        assertThat(encoded).isEqualTo(new StoredResponse(201, headers, json).encode());
        assertThat(StoredResponse.decode(encoded).body()).isEqualTo(json);
    }
}
