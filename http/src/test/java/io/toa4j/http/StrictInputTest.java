package io.toa4j.http;

import static io.toa4j.http.ProblemBodies.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Input the gateway must refuse whole, on a real gateway over a real SQLite context: a body with
 * more than one value, bytes that are not UTF-8, percent-escapes that decode to nothing, requests
 * Jetty itself cannot read. Each is a 4xx problem body, and the wallet stays at its version.
 */
class StrictInputTest {
  static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final String WALLET = "0123456789abcdef0123456789abcdef";
  static final String CREDITS = "/test/wallets/" + WALLET + "/credits/";

  @TempDir static Path directory;
  static Toa app;

  /** Reads bodies up to 4 KiB. */
  static Gateway gateway;

  /** Reads bodies up to the default, 1 MiB. */
  static Gateway roomy;

  @BeforeAll
  static void start() throws Exception {
    app = Toa.builder().directory(Wallets.context(directory, "toa4j.test.gate.unused")).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), 4096);
    roomy = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);
    HttpResponse<String> first = put(gateway, "application/json", bytes("{\"amount\": 5}"));
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertUnchanged();
  }

  @AfterEach
  void unchanged() {
    assertUnchanged();
  }

  @AfterAll
  static void stop() {
    roomy.close();
    gateway.close();
    app.close();
  }

  /** The wallet as the first credit left it: balance 5, version 1. */
  static void assertUnchanged() {
    Map<?, ?> wallet =
        (Map<?, ?>)
            ((Reply.Output) app.call("test.wallets.observe", Request.id(WALLET)))
                .value()
                .orElseThrow();
    assertThat(wallet.get("VERSION")).isEqualTo(1L);
    assertThat(wallet.get("balance")).isEqualTo(5L);
  }

  static HttpResponse<String> put(String contentType, byte[] body) throws Exception {
    return put(gateway, contentType, body);
  }

  static HttpResponse<String> put(Gateway gateway, String contentType, byte[] body)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + CREDITS))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .header("content-type", contentType)
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> send(String method, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Text with raw bytes spliced in where {@code <hex>} stands: {@code "a<c0af>b"}. */
  static byte[] spliced(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String[] parts = text.split("[<>]");
    for (int i = 0; i < parts.length; i++)
      out.writeBytes(i % 2 == 0 ? bytes(parts[i]) : HexFormat.of().parseHex(parts[i]));
    return out.toByteArray();
  }

  static JsonNode assertRefused(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return assertProblem(
        status, response.headers().firstValue("content-type"), bytes(response.body()));
  }

  // ---- item 1: one value, UTF-8 -------------------------------------------------------------

  @Test
  void put_jsonWithTextAfterItsValue_is400_andCreditsNothing() throws Exception {
    for (String body :
        List.of(
            "{\"amount\": 1} trailing",
            "{\"amount\": 1}]",
            "{\"amount\": 1} {\"amount\": 2}",
            "{\"amount\": 1}}",
            "{\"amount\": 1} 7")) {
      JsonNode problem = assertRefused(put("application/json", bytes(body)), 400);
      assertThat(problem.path("code").asString()).isEqualTo("MALFORMED");
      assertThat(problem.path("detail").asString())
          .as(body)
          .contains("more after its JSON value", "line 1, column 14");
    }
  }

  @Test
  void put_jsonFollowedByWhiteSpace_isOneValue() throws Exception {
    HttpResponse<String> put = put("application/json", bytes("{\"amount\": 0}\r\n\t "));

    assertRefused(put, 400); // the amount's minimum, not the white space
    assertThat(put.body()).contains("/amount");
  }

  @Test
  void put_yamlWithASecondDocument_is400_andCreditsNothing() throws Exception {
    for (String body :
        List.of(
            "amount: 1\n---\namount: 2\n",
            "amount: 1\n---\n",
            "---\namount: 1\n---\namount: 1\n")) {
      JsonNode problem = assertRefused(put("application/yaml", bytes(body)), 400);
      assertThat(problem.path("detail").asString())
          .as(body)
          .contains("more than one YAML document", "send one");
    }
  }

  @Test
  void put_bodyWithBytesThatAreNotUtf8_is400NamingTheByte_andCreditsNothing() throws Exception {
    // overlong '/' (C0 AF, E0 80 AF), a lone surrogate (ED A0 80), bytes UTF-8 never has (FF, F8)
    Map<String, String> bodies =
        Map.of(
            "{\"amount\": 1, \"<c0af>\": 1}", "byte 15 (0xc0)",
            "{\"amount\": 1, \"a\": \"<e080af>\"}", "byte 20 (0xe0)",
            "{\"amount\": 1, \"a\": \"<eda080>\"}", "byte 20 (0xed)",
            "{\"amount\": 1}<ff>", "byte 13 (0xff)",
            "<f8>{\"amount\": 1}", "byte 0 (0xf8)");
    for (Map.Entry<String, String> body : bodies.entrySet()) {
      JsonNode problem = assertRefused(put("application/json", spliced(body.getKey())), 400);
      assertThat(problem.path("detail").asString())
          .as(body.getKey())
          .startsWith("the body is not UTF-8")
          .contains(body.getValue());
    }
    JsonNode yaml =
        assertRefused(put("application/yaml", spliced("amount: 1\nref: <c0af>\n")), 400);
    assertThat(yaml.path("detail").asString()).contains("not UTF-8", "byte 15 (0xc0)");
  }

  @Test
  void put_bodyDeclaringAnotherCharset_is415() throws Exception {
    JsonNode problem =
        assertRefused(put("application/json; charset=utf-16", bytes("{\"amount\": 1}")), 415);

    assertThat(problem.path("detail").asString())
        .contains("charset utf-16 is not accepted", "UTF-8");
    assertThat(put("application/json; charset=UTF-8", bytes("{\"amount\": 0}")).statusCode())
        .isEqualTo(400); // read, then refused by schema
  }

  @Test
  void put_bodyNestedDeeperThanTheParserReads_is400WithoutTheParsersSettings() throws Exception {
    String deep = "{\"amount\": " + "[".repeat(5000) + "]".repeat(5000) + "}";

    JsonNode problem = assertRefused(put(roomy, "application/json", bytes(deep)), 400);
    JsonNode yaml =
        assertRefused(
            put(roomy, "application/yaml", bytes("amount: " + "[".repeat(2000) + "]".repeat(2000))),
            400);

    assertThat(problem.path("detail").asString())
        .contains("nested deeper than the gateway reads", "(500)");
    assertThat(yaml.path("detail").asString())
        .startsWith("the body is not YAML")
        .contains("nested deeper than the gateway reads");
  }

  @Test
  void put_malformedJsonOrYaml_says_whatAndWhere_withoutTheParsersDump() throws Exception {
    JsonNode json = assertRefused(put("application/json", bytes("{\"amount\": 1")), 400);
    JsonNode yaml = assertRefused(put("application/yaml", bytes("amount: [1\n")), 400);

    assertThat(json.path("detail").asString())
        .isEqualTo(
            "the body is not JSON at line 1, column 13: Unexpected end-of-input: expected close marker for Object");
    assertThat(yaml.path("detail").asString())
        .isEqualTo(
            "the body is not YAML at line 2, column 1: expected ',' or ']', but got <stream end>");
  }

  @Test
  void put_yamlWithAnAliasAndAMergeKey_isReadAsTheValuesTheyStandFor() throws Exception {
    String other = "fedcba9876543210fedcba9876543210";
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + gateway.port() + "/test/wallets/" + other + "/credits/"))
            .PUT(HttpRequest.BodyPublishers.ofString("base: &base { amount: 7 }\n<<: *base\n"))
            .header("content-type", "application/yaml")
            .build();

    HttpResponse<String> put = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());

    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    Map<?, ?> wallet =
        (Map<?, ?>)
            ((Reply.Output) app.call("test.wallets.observe", Request.id(other)))
                .value()
                .orElseThrow();
    assertThat(wallet.get("balance")).isEqualTo(7L);
  }

  @Test
  void put_yamlWhoseAliasesExpandPastTheBound_is400NamingIt_andCreditsNothing() throws Exception {
    StringBuilder body = new StringBuilder("amount: 1\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int level = 1; level < 9; level++) {
      body.append("l")
          .append(level)
          .append(": &l")
          .append(level)
          .append(" [")
          .append(String.join(", ", java.util.Collections.nCopies(10, "*l" + (level - 1))))
          .append("]\n");
    }

    JsonNode problem = assertRefused(put("application/yaml", bytes(body.toString())), 400);

    assertThat(problem.path("code").asString()).isEqualTo("MALFORMED");
    assertThat(problem.path("detail").asString())
        .startsWith("the body is refused at line 6, column ")
        .contains(
            "the document expands past 100000 values through its aliases", "use fewer aliases");
  }

  // ---- lone surrogates
  // ---------------------------------------------------------------------------

  static HttpResponse<String> rename(String wallet, String contentType, String body)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + gateway.port() + "/test/wallets/" + wallet + "/name/"))
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .header("content-type", contentType)
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void put_textWithALoneSurrogateEscape_is400SayingWhatAndWhere_andWritesNothing()
      throws Exception {
    Map<String, String> bodies =
        Map.of(
            "{\"name\": \"x\\udc00y\"}",
                "at line 1, column 10: a text holds \\udc00 as its character 2, a lone surrogate",
            "{\"name\": \"x\\ud800\"}",
                "at line 1, column 10: a text holds \\ud800 as its character 2, a lone surrogate",
            "{\"name\": \"\\udc00\\ud800\"}",
                "at line 1, column 10: a text holds \\udc00 as its character 1",
            "{\"name\": \"\\ud800\\u0041\"}",
                "at line 1, column 10: a text holds \\ud800 as its character 1");
    for (Map.Entry<String, String> body : bodies.entrySet()) {
      JsonNode problem = assertRefused(rename(WALLET, "application/json", body.getKey()), 400);
      assertThat(problem.path("code").asString()).as(body.getKey()).isEqualTo("MALFORMED");
      assertThat(problem.path("detail").asString())
          .as(body.getKey())
          .startsWith("the body is refused " + body.getValue())
          .endsWith(
              "send the character itself, or escape both halves of its UTF-16 pair (\\ud83d\\ude00 for U+1F600)");
    }
    assertRefused(
        rename(WALLET, "application/json", "{\"name\": \"x\", \"\\udc00\": 1}"),
        400); // in a property name
    assertUnchanged(); // no name stored, VERSION still 1
  }

  @Test
  void put_yamlTextWithALoneSurrogateEscape_is400SayingWhatAndWhere_andWritesNothing()
      throws Exception {
    for (String body : List.of("name: \"x\\udc00y\"\n", "name: \"x\\U0000dc00y\"\n")) {
      JsonNode problem = assertRefused(rename(WALLET, "application/yaml", body), 400);
      assertThat(problem.path("code").asString()).as(body).isEqualTo("MALFORMED");
      assertThat(problem.path("detail").asString())
          .as(body)
          .startsWith(
              "the body is refused at line 1, column 7: a text holds \\udc00 as its character 2, a lone surrogate")
          .contains("escape both halves of its UTF-16 pair");
    }
    assertUnchanged();
  }

  @Test
  void put_textWithASurrogatePairEscaped_isStoredAsItsCharacter() throws Exception {
    String other = "fedcba9876543210fedcba9876543211";

    HttpResponse<String> json =
        rename(other, "application/json", "{\"name\": \"x\\ud83d\\ude00y\"}");

    assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
    Map<?, ?> wallet =
        (Map<?, ?>)
            ((Reply.Output) app.call("test.wallets.observe", Request.id(other)))
                .value()
                .orElseThrow();
    assertThat(wallet.get("name")).isEqualTo("x\ud83d\ude00y");
  }

  // ---- item 2: percent-escapes ----------------------------------------------------------------

  @Test
  void query_withAMalformedPercentEscape_is400NamingTheField() {
    for (String query : List.of("%zz", "version=%", "version=%2", "a=%g1")) {
      RawHttp.Answer answer =
          RawHttp.send(
              gateway.port(),
              "GET /test/wallets/" + WALLET + "/?" + query + " HTTP/1.1\r\nhost: x\r\n\r\n");
      JsonNode problem = assertProblem(400, answer);
      assertThat(problem.path("detail").asString())
          .as(query)
          .contains("the query string field '" + query + "'", "not a percent-escape");
    }
  }

  @Test
  void query_escapingBytesThatAreNotUtf8_is400() {
    for (String query : List.of("a=%ff", "a=%c0%af", "version=%ed%a0%80")) {
      RawHttp.Answer answer =
          RawHttp.send(
              gateway.port(),
              "PUT "
                  + CREDITS
                  + "?"
                  + query
                  + " HTTP/1.1\r\nhost: x\r\n"
                  + "content-type: application/json\r\ncontent-length: 13\r\n\r\n{\"amount\": 1}");
      JsonNode problem = assertProblem(400, answer);
      assertThat(problem.path("detail").asString())
          .as(query)
          .contains("'" + query + "' decoded is not UTF-8");
    }
  }

  @Test
  void path_withAMalformedOrNonUtf8Escape_is400Problem() {
    for (String path :
        List.of("/test/wallets/%zz/", "/test/wallets/%ff/", "/test/wallets/%c0%af/credits/")) {
      RawHttp.Answer answer =
          RawHttp.send(
              gateway.port(),
              "PUT "
                  + path
                  + " HTTP/1.1\r\nhost: x\r\n"
                  + "content-type: application/json\r\ncontent-length: 13\r\n\r\n{\"amount\": 1}");
      assertThat(assertProblem(400, answer).path("detail").asString())
          .as(path)
          .contains("percent-escapes");
    }
  }

  // ---- item 3: Jetty's own answers --------------------------------------------------------------

  @Test
  void requestLineJettyCannotRead_is400Problem() {
    assertThat(
            assertProblem(400, RawHttp.send(gateway.port(), "GARBAGE\r\n\r\n"))
                .path("code")
                .asString())
        .isEqualTo("MALFORMED");
    assertProblem(
        400, RawHttp.send(gateway.port(), "GET /test/ wallets/ HTTP/1.1\r\nhost: x\r\n\r\n"));
    assertProblem(400, RawHttp.send(gateway.port(), "GET /\u0001/ HTTP/1.1\r\nhost: x\r\n\r\n"));
  }

  @Test
  void requestWithoutHost_is400ProblemSayingSo() {
    JsonNode problem =
        assertProblem(
            400,
            RawHttp.send(gateway.port(), "GET /test/wallets/" + WALLET + "/ HTTP/1.1\r\n\r\n"));

    assertThat(problem.path("detail").asString()).contains("No Host");
  }

  @Test
  void headerJettyCannotRead_is400Problem() {
    assertProblem(
        400, RawHttp.send(gateway.port(), "GET / HTTP/1.1\r\nhost: x\r\nno colon here\r\n\r\n"));
    assertProblem(
        400,
        RawHttp.send(
            gateway.port(),
            "PUT "
                + CREDITS
                + " HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\ncontent-length: 4\r\n\r\nabcd"));
  }

  @Test
  void unknownRoute_is404Problem_forEveryMethod() {
    for (String method : List.of("GET", "PUT", "OPTIONS", "DELETE")) {
      JsonNode problem =
          assertProblem(
              404,
              RawHttp.send(gateway.port(), method + " /nothing/here/ HTTP/1.1\r\nhost: x\r\n\r\n"));
      assertThat(problem.path("code").asString()).isEqualTo("NOT_FOUND");
    }
  }

  @Test
  void bodyOverTheLimit_is413Problem() {
    String body = "{\"amount\": 1, \"pad\": \"" + "x".repeat(5000) + "\"}";
    RawHttp.Answer answer =
        RawHttp.send(
            gateway.port(),
            "PUT "
                + CREDITS
                + " HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                + "content-length: "
                + body.length()
                + "\r\n\r\n"
                + body);

    assertThat(assertProblem(413, answer).path("title").asString()).isEqualTo("Content Too Large");
  }

  @Test
  void requestLineOverJettysLimit_is414Problem() {
    RawHttp.Answer answer =
        RawHttp.send(
            gateway.port(), "GET /" + "a".repeat(10_000) + "/ HTTP/1.1\r\nhost: x\r\n\r\n");

    assertThat(assertProblem(414, answer).path("code").asString()).isEqualTo("URI_TOO_LONG");
  }

  @Test
  void headersOverJettysLimit_is431Problem() {
    RawHttp.Answer answer =
        RawHttp.send(
            gateway.port(),
            "GET / HTTP/1.1\r\nhost: x\r\nx-pad: " + "a".repeat(10_000) + "\r\n\r\n");

    assertThat(assertProblem(431, answer).path("code").asString()).isEqualTo("HEADERS_TOO_LARGE");
  }

  @Test
  void unknownHttpVersion_is505Problem() {
    for (String version : List.of("HTTP/1.2", "HTTP/3.0")) {
      RawHttp.Answer answer =
          RawHttp.send(gateway.port(), "GET /.toa/health " + version + "\r\nhost: x\r\n\r\n");
      assertThat(assertProblem(505, answer).path("detail").asString())
          .as(version)
          .contains("send HTTP/1.1");
    }
    // HTTP/2.0 in an HTTP/1 request line: Jetty asks for an upgrade
    assertProblem(
        426, RawHttp.send(gateway.port(), "GET /.toa/health HTTP/2.0\r\nhost: x\r\n\r\n"));
  }

  // ---- item 4: HEAD
  // -------------------------------------------------------------------------------

  @Test
  void head_isServedWhereverGetIs_withTheSameStatusAndHeaders_andNoBody() throws Exception {
    for (String path :
        List.of(
            "/test/wallets/" + WALLET + "/",
            "/test/wallets/" + WALLET + "/grants/",
            "/.toa/health",
            "/.toa/metrics",
            "/test/wallets/nothing/",
            "/test/none/",
            "/test/wallets/" + WALLET)) {
      HttpResponse<String> get = send("GET", path);
      HttpResponse<String> head = send("HEAD", path);

      assertThat(head.statusCode()).as(path).isEqualTo(get.statusCode());
      assertThat(head.body()).as(path).isEmpty();
      for (String header : List.of("content-type", "etag", "allow")) {
        assertThat(head.headers().firstValue(header))
            .as(path + " " + header)
            .isEqualTo(get.headers().firstValue(header));
      }
      RawHttp.Answer raw =
          RawHttp.send(gateway.port(), "HEAD " + path + " HTTP/1.1\r\nhost: x\r\n\r\n");
      assertThat(raw.header("content-length"))
          .as(path)
          .isEqualTo(get.headers().firstValue("content-length"));
    }
  }

  @Test
  void head_onARouteWithoutGet_is405_andAllowListsHeadBesideGet() throws Exception {
    HttpResponse<String> head = send("HEAD", CREDITS);
    HttpResponse<String> delete = send("DELETE", "/test/wallets/" + WALLET + "/grants/");

    assertThat(head.statusCode()).isEqualTo(405);
    assertThat(head.headers().firstValue("allow").orElseThrow()).doesNotContain("GET", "HEAD");
    assertThat(delete.headers().firstValue("allow").orElseThrow()).contains("GET, HEAD");
  }

  // ---- item 5: no class names
  // -----------------------------------------------------------------------

  @Test
  void inputThatFitsTheSchemaButNotTheClass_namesThePointerAndWhatWasExpected_notTheClass()
      throws Exception {
    JsonNode tooBig =
        assertRefused(put("application/json", bytes("{\"amount\": 99999999999999999999}")), 400);

    assertThat(tooBig.path("detail").asString())
        .isEqualTo(
            "the input of credit cannot be read: /amount: expected a whole number from -9223372036854775808 to 9223372036854775807,"
                + " got 99999999999999999999");
    assertThat(tooBig.path("detail").asString()).doesNotContain("Credit", "Input");
  }
}
