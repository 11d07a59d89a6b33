package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.runtime.Toa;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** The gateway on a real port, called by the JDK's HTTP client, over a real SQLite context. */
class GatewayTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT = HttpClient.newHttpClient();

  @TempDir Path directory;
  Toa app;
  Gateway gateway;
  String id;

  @BeforeEach
  void start() throws Exception {
    app = Toa.builder().directory(Notes.context(directory)).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);
    HttpResponse<String> created =
        send("POST", "/test/notes/", "application/json", "{\"text\": \"hello\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    id = JSON.readTree(created.body()).path("id").asString();
  }

  @AfterEach
  void stop() throws Exception {
    // whatever a test sent, the note it did not mean to change is unchanged
    gateway.close();
    app.close();
  }

  HttpResponse<String> send(
      String method, String path, String contentType, String body, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) request.header("content-type", contentType);
    for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  JsonNode note() throws Exception {
    HttpResponse<String> read = send("GET", "/test/notes/" + id + "/", null, null);
    assertThat(read.statusCode()).isEqualTo(200);
    return JSON.readTree(read.body());
  }

  void assertUnchanged() throws Exception {
    assertThat(note().path("text").asString()).isEqualTo("hello");
    assertThat(note().path("VERSION").asLong()).isEqualTo(1);
  }

  @Test
  void start_onAPortAlreadyInUse_failsNamingTheAddressAndTheReason() throws Exception {
    InetSocketAddress taken = new InetSocketAddress("127.0.0.1", gateway.port());

    assertThatThrownBy(() -> Gateway.start(app, taken, Gateway.DEFAULT_MAX_BODY))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith(
            "The HTTP gateway cannot listen on 127.0.0.1:" + gateway.port() + ": ")
        .hasMessageContaining("in use");
    assertUnchanged(); // the gateway that holds the port still serves
  }

  @Test
  void post_creates_andGetAnswersTheRecordWithItsEtag() throws Exception {
    HttpResponse<String> read = send("GET", "/test/notes/" + id + "/", null, null);

    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.headers().firstValue("etag")).contains("\"1\"");
    assertThat(read.headers().firstValue("content-type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(JSON.readTree(read.body()).path("text").asString()).isEqualTo("hello");
  }

  @Test
  void get_acceptingYaml_answersYaml() throws Exception {
    HttpResponse<String> read =
        send("GET", "/test/notes/" + id + "/", null, null, "accept", "application/yaml");

    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).contains("text: hello").doesNotStartWith("---");
  }

  @Test
  void put_withYamlBody_isYaml12_soNoIsTheStringNo_andAYamlAnswerReadsBackAlike() throws Exception {
    HttpResponse<String> put =
        send(
            "PUT",
            "/test/notes/" + id + "/",
            "application/yaml",
            "text: no\n",
            "if-match",
            "\"1\"");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertThat(note().path("text").asString()).isEqualTo("no");

    HttpResponse<String> read =
        send("GET", "/test/notes/" + id + "/", null, null, "accept", "application/yaml");
    assertThat(read.body()).contains("text: \"no\"");
  }

  @Test
  void put_withYamlBody_changesTheRecord_andIfMatchIsAPrecondition() throws Exception {
    HttpResponse<String> put =
        send(
            "PUT",
            "/test/notes/" + id + "/",
            "application/yaml",
            "text: changed\n",
            "if-match",
            "\"1\"");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    assertThat(JSON.readTree(put.body()).path("VERSION").asLong()).isEqualTo(2);

    HttpResponse<String> stale =
        send(
            "PUT",
            "/test/notes/" + id + "/",
            "application/json",
            "{\"text\": \"again\"}",
            "if-match",
            "\"1\"");
    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(note().path("text").asString()).isEqualTo("changed");
  }

  @Test
  void routeWithoutIoOutput_answers204WithNoBody() throws Exception {
    HttpResponse<String> put =
        send("PUT", "/test/notes/" + id + "/quiet/", "application/json", "{\"text\": \"shh\"}");

    assertThat(put.statusCode()).isEqualTo(204);
    assertThat(put.body()).isEmpty();
  }

  @Test
  void refusal_is422ProblemWithCodeAndCause_andChangesNothing() throws Exception {
    HttpResponse<String> put =
        send("PUT", "/test/notes/" + id + "/", "application/json", "{\"text\": \"forbidden\"}");

    assertThat(put.statusCode()).isEqualTo(422);
    ProblemBodies.assertProblem(
        422,
        put.headers().firstValue("content-type"),
        put.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(JSON.readTree(put.body()).path("detail").asString())
        .isEqualTo("test.notes.write refused the request: FORBIDDEN");
    assertThat(JSON.readTree(put.body()).path("code").asString()).isEqualTo("FORBIDDEN");
    assertThat(JSON.readTree(put.body()).path("cause").path("word").asString())
        .isEqualTo("forbidden");
    assertUnchanged();
  }

  @Test
  void closedRoute_is401WithAChallenge() throws Exception {
    HttpResponse<String> read = send("GET", "/test/notes/" + id + "/secret/", null, null);

    assertThat(read.statusCode()).isEqualTo(401);
    assertThat(read.headers().firstValue("www-authenticate")).isPresent();
  }

  @Test
  void badRequests_are4xxWithAClearMessage_andChangeNothing() throws Exception {
    String path = "/test/notes/" + id + "/";
    expect(send("PUT", path, "application/json", "{\"text\": "), 400, "not JSON");
    expect(send("PUT", path, "application/yaml", "text: [unclosed"), 400, "not YAML");
    expect(send("PUT", path, "application/json", "{\"text\": 5}"), 400, "/text");
    expect(
        send("PUT", path, "application/json", "{\"text\": \"x\", \"colour\": \"red\"}"),
        400,
        "/colour: the body property 'colour' is not accepted");
    expect(
        send("PUT", path, "application/json", "{\"text\": \"" + "x".repeat(2 << 20) + "\"}"),
        413,
        "over");
    expect(send("PUT", path, "text/plain", "text"), 415, "text/plain");
    expect(send("GET", "/test/notes/not-an-id/", null, null), 400, "32 hexadecimal");
    expect(send("GET", path + "?colour=red", null, null), 400, "'colour' is not declared");
    expect(send("DELETE", path, null, null), 405, "DELETE is not declared");
    expect(send("FETCH", path, null, null), 405, "FETCH is not declared");
    expect(send("GET", "/test/nothing/", null, null), 404, "no route");
    expect(send("GET", "/test/notes/" + id, null, null), 404, "end with a slash");
    expect(send("GET", path, null, null, "accept", "text/html"), 406, "accept");
    expect(
        send("PUT", path, "application/json", "{\"text\": \"" + "y".repeat(200) + "\"}"),
        500,
        "inside the application");
    assertUnchanged();
  }

  private static void expect(HttpResponse<String> response, int status, String message)
      throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    ProblemBodies.assertProblem(
        status,
        response.headers().firstValue("content-type"),
        response.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    JsonNode body = JSON.readTree(response.body());
    assertThat(body.path("detail").asString()).contains(message);
    if (status >= 500)
      assertThat(body.path("detail").asString()).doesNotContain("Exception", "maxLength");
  }

  @Test
  void health_whenStorageAndBusAnswer_isUpAndNothingElse() throws Exception {
    HttpResponse<String> health = send("GET", "/.toa/health", null, null);
    assertThat(health.headers().firstValue("server"))
        .as("the server's make and version are not told")
        .isEmpty();

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(health.body())).isEqualTo(JSON.readTree("{\"status\": \"up\"}"));
  }

  @Test
  void metrics_withoutCredentials_is401AndShowsNoMeter() throws Exception {
    send("PUT", "/test/notes/" + id + "/", "application/json", "{\"text\": \"forbidden\"}");

    HttpResponse<String> metrics = send("GET", "/.toa/metrics", null, null);

    assertThat(metrics.statusCode()).isEqualTo(401);
    assertThat(metrics.headers().allValues("www-authenticate"))
        .anySatisfy(v -> assertThat(v).startsWith("Basic realm="));
    assertThat(metrics.body())
        .contains(GatewaySettings.DEFAULT_METRICS_ROLE)
        .doesNotContain("toa_", "write");
    assertThat(send("POST", "/.toa/metrics", "application/json", "{}").statusCode()).isEqualTo(405);
  }

  @Test
  void patch_withABodyThatIsNotJson_is400() throws Exception {
    expect(
        send(
            "PATCH",
            "/test/notes/" + id + "/",
            "application/json; charset=utf-8",
            "--- !!binary\nAAAA",
            "if-match",
            "\"7\""),
        400,
        "not JSON");
    assertUnchanged();
  }
}
