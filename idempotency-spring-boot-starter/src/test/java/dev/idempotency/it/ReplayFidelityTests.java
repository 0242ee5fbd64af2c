package dev.idempotency.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A replay is the response as it was sent: after views, advice and converters, and whatever the handler wrote. */
class ReplayFidelityTests extends ShopTest {

    @Autowired
    PromiseController promise;

    @Test
    void fieldsHiddenByAJsonViewStayHiddenInTheReplay() {
        String key = newKey();
        HttpResponse<String> first = http.post("/promise/views", "{}", "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/promise/views", "{}", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(201);
        assertThat(first.body())
                .contains("\"id\":\"acc-1\"")
                .doesNotContain("secret")
                .doesNotContain("s3cr3t");
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(replay.body()).isEqualTo(first.body()).doesNotContain("s3cr3t");
    }

    @Test
    void aResponseBodyAdviceEnvelopeIsReplayed() {
        String key = newKey();
        HttpResponse<String> first = http.post("/promise/enveloped", "{}", "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/promise/enveloped", "{}", "Idempotency-Key", key);
        assertThat(first.body()).contains("\"envelope\":\"v1\"").contains("\"data\":{\"run\":");
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(promise.runs("enveloped")).isEqualTo(1);
    }

    @Test
    void aHandlerWritingTheServletResponseItselfIsReplayedWithItsStatusAndBody() {
        String key = newKey();
        int before = promise.runs("raw");
        HttpResponse<String> first = http.post("/promise/raw", "{}", "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/promise/raw", "{}", "Idempotency-Key", key);
        assertThat(first.statusCode()).isEqualTo(202);
        assertThat(first.body()).startsWith("accepted #").endsWith(" \u00e9");
        assertThat(replay.statusCode()).isEqualTo(202);
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.headers().firstValue("Content-Type")).hasValue("text/plain;charset=UTF-8");
        assertThat(promise.runs("raw")).isEqualTo(before + 1);
    }

    @Test
    void repeatedAndCommaSeparatedParametersAreDifferentPayloads() {
        String key = newKey();
        assertThat(http.post("/promise/search?a=1,2", "{}", "Idempotency-Key", key)
                        .statusCode())
                .isEqualTo(200);
        assertThat(http.post("/promise/search?a=1&a=2", "{}", "Idempotency-Key", key)
                        .statusCode())
                .isEqualTo(422);
        assertThat(http.post("/promise/search?a=1,2", "{}", "Idempotency-Key", key)
                        .headers()
                        .firstValue("Idempotent-Replayed"))
                .hasValue("true");
    }

    @Test
    void requestBodyDeclaredOnAnInterfaceIsThePayload() {
        String key = newKey();
        assertThat(http.post("/generated", "{\"item\":\"cup\"}", "Idempotency-Key", key)
                        .statusCode())
                .isEqualTo(200);
        assertThat(http.post("/generated", "{\"item\":\"mug\"}", "Idempotency-Key", key)
                        .statusCode())
                .isEqualTo(422);
        assertThat(http.post("/generated", "{ \"item\" : \"cup\" }", "Idempotency-Key", key)
                        .headers()
                        .firstValue("Idempotent-Replayed"))
                .as("equal JSON with other whitespace")
                .hasValue("true");
    }

    @Test
    void httpEntityBodyIsThePayload() {
        String key = newKey();
        assertThat(http.post("/entity", "one", "Idempotency-Key", key).statusCode())
                .isEqualTo(200);
        assertThat(http.post("/entity", "two", "Idempotency-Key", key).statusCode())
                .isEqualTo(422);
    }

    @Test
    void formBodiesArePartOfThePayload() throws Exception {
        String key = newKey();
        assertThat(form("/promise/search", "q=espresso&size=2", key).statusCode())
                .isEqualTo(200);
        assertThat(form("/promise/search", "q=espresso&size=3", key).statusCode())
                .isEqualTo(422);
        assertThat(form("/promise/search", "q=espresso&size=2", key).headers().firstValue("Idempotent-Replayed"))
                .hasValue("true");
    }

    @Test
    void uploadedFilesArePartOfThePayload() throws Exception {
        String key = newKey();
        assertThat(multipart("one", key).statusCode()).isEqualTo(200);
        assertThat(multipart("two", key).statusCode())
                .as("same size, other content")
                .isEqualTo(422);
        assertThat(multipart("one", key).headers().firstValue("Idempotent-Replayed"))
                .hasValue("true");
    }

    @Test
    void keysComputedFromArgumentsMayHoldAnyCharacters() {
        String city = "S\u00e3o Paulo " + newKey();
        int before = promise.runs("keyed");
        String query = "/promise/keyed?name=Jos%C3%A9%20Silva&city="
                + city.replace(" ", "%20").replace("\u00e3", "%C3%A3");
        assertThat(http.post(query, "{}").statusCode())
                .as("spaces and non-ASCII in a SpEL key")
                .isEqualTo(200);
        assertThat(http.post(query, "{}").headers().firstValue("Idempotent-Replayed"))
                .hasValue("true");
        assertThat(promise.runs("keyed")).isEqualTo(before + 1);
    }

    @Test
    void callableHandlerIsReplayedAsItWasSent() {
        String key = newKey();
        HttpResponse<String> first = http.post("/promise/callable/c1", "{}", "Idempotency-Key", key);
        HttpResponse<String> replay = http.post("/promise/callable/c1", "{}", "Idempotency-Key", key);
        assertThat(first.body()).startsWith("called c1 #");
        assertThat(replay.body()).isEqualTo(first.body());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    }

    private HttpResponse<String> multipart(String content, String key) throws Exception {
        String boundary = "b-" + key;
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n";
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/promise/upload"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> form(String path, String body, String key) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}
