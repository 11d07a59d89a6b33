package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Thousands of malformed requests thrown at a real gateway: none is answered with a 5xx, each is
 * answered with a problem body, and none changes the one note that exists.
 */
class GatewayFuzzTest {
  static final HttpClient CLIENT = HttpClient.newHttpClient();
  static Path directory;
  static Toa app;
  static Gateway gateway;
  static String id;

  @BeforeContainer
  static void start() throws Exception {
    directory = Files.createTempDirectory("toa-fuzz");
    app = Toa.builder().directory(Notes.context(directory)).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), 4096);
    Reply created = app.call("test.notes.create", Request.input(Map.of("text", "hello")));
    id = (String) ((Map<?, ?>) ((Reply.Output) created).value().orElseThrow()).get("id");
  }

  @AfterContainer
  static void stop() {
    gateway.close();
    app.close();
  }

  /** One malformed request: its parts drawn so that no combination is a valid change. */
  record Attempt(
      String method, String path, String contentType, String body, String accept, String ifMatch) {}

  @Property(tries = 2000)
  void malformedRequest_isNever5xx_andChangesNothing(@ForAll("attempts") Attempt attempt)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + attempt.path()))
            .method(
                attempt.method(),
                attempt.body() == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(attempt.body()));
    if (attempt.contentType() != null) request.header("content-type", attempt.contentType());
    if (attempt.accept() != null) request.header("accept", attempt.accept());
    if (attempt.ifMatch() != null) request.header("if-match", attempt.ifMatch());

    HttpResponse<String> response =
        CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).as("%s -> %s", attempt, response.body()).isLessThan(500);
    if (response.statusCode() >= 400 && !attempt.method().equals("HEAD")) {
      ProblemBodies.assertProblem(
          response.statusCode(),
          response.headers().firstValue("content-type"),
          response.body().getBytes(StandardCharsets.UTF_8));
    }
    Map<?, ?> note =
        (Map<?, ?>)
            ((Reply.Output) app.call("test.notes.observe", Request.id(id))).value().orElseThrow();
    assertThat(note.get("text")).isEqualTo("hello");
    assertThat(note.get("VERSION")).isEqualTo(1L);
  }

  @Provide
  Arbitrary<Attempt> attempts() {
    Arbitrary<String> methods =
        Arbitraries.of("GET", "HEAD", "PUT", "PATCH", "POST", "DELETE", "FETCH", "OPTIONS");
    Arbitrary<String> paths =
        Arbitraries.oneOf(
            Arbitraries.of(
                "/test/notes/" + id + "/",
                "/test/notes/" + id,
                "/test/notes/",
                "/test/notes/" + id + "/quiet/",
                "/test/notes/" + id + "/secret/",
                "/.toa/nothing",
                "/test/notes/" + id.toUpperCase() + "x/",
                "/test//notes/",
                "/test/notes/" + id + "/?version=abc",
                "/test/notes/" + id + "/?colour=1",
                "/test/notes/%2e%2e/",
                "/"),
            Arbitraries.strings()
                .withCharRange('a', 'z')
                .withChars('/', ':', '.', '-')
                .ofMaxLength(40)
                .map(s -> "/" + s));
    Arbitrary<String> contentTypes =
        Arbitraries.of(
            "application/json",
            "application/yaml",
            "text/plain",
            "application/json; charset=utf-8",
            "",
            "garbage/!!");
    Arbitrary<String> bodies =
        Arbitraries.oneOf(
            Arbitraries.of(
                "{",
                "{\"text\": 5}",
                "{\"text\": \"x\", \"colour\": 1}",
                "[1, 2]",
                "text: [",
                "{\"text\": null}",
                "{\"text\": \"forbidden\"}",
                "\"just a string\"",
                "{\"text\": \"" + "z".repeat(5000) + "\"}",
                "--- !!binary\nAAAA",
                "{\"a\":1,\"a\":2}"),
            Arbitraries.strings().ofMaxLength(200).map(s -> "{{" + s));
    Arbitrary<String> accepts =
        Arbitraries.of(
            "application/json", "application/yaml", "text/html", "*/*", "application/*;q=0.1", "");
    Arbitrary<String> ifMatches = Arbitraries.of("\"1\"", "\"7\"", "W/\"2\"", "abc", "");
    return Combinators.combine(
            methods,
            paths,
            contentTypes.injectNull(0.2),
            bodies.injectNull(0.1),
            accepts.injectNull(0.3),
            ifMatches.injectNull(0.5))
        .as(Attempt::new)
        .filter(GatewayFuzzTest::malformed);
  }

  /** Leaves out the few combinations that are a valid request which may change the note. */
  private static boolean malformed(Attempt a) {
    boolean writes = !a.method().equals("GET");
    // the write transition refuses this text; PATCH is assign, which would take it
    boolean forbidden =
        !a.method().equals("PATCH")
            && a.body() != null
            && a.body().equals("{\"text\": \"forbidden\"}");
    // no if-match is no precondition: such a write is as valid as one at the note's version
    boolean current = a.ifMatch() == null || List.of("\"1\"", "").contains(a.ifMatch());
    return !writes
        || !current
        || forbidden
        || a.body() == null
        || a.body().startsWith("{{")
        || !a.body().contains("\"text\": \"");
  }
}
