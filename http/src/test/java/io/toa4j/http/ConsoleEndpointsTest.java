package io.toa4j.http;

import static io.toa4j.http.OperationsEndpointsTest.CLIENT;
import static io.toa4j.http.OperationsEndpointsTest.JSON;
import static io.toa4j.http.OperationsEndpointsTest.PASSWORD;
import static io.toa4j.http.OperationsEndpointsTest.PATIENCE;
import static io.toa4j.http.OperationsEndpointsTest.QUEUE;
import static io.toa4j.http.OperationsEndpointsTest.SOURCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The operator console's page and endpoints at a real gateway on a free port: the page open and
 * holding no data, every data and action endpoint behind the operator role, actions only with the
 * console's header, and replay and redelivery doing what the admin face does.
 */
class ConsoleEndpointsTest {
  @TempDir Path directory;
  final String failing = "toa4j.test.failing." + UUID.randomUUID();
  Toa app;
  Gateway gateway;

  @BeforeEach
  void start() {
    SourcesAndSinks.write(
        directory, failing, "[]"); // no retries: a failing delivery is parked at once
    app = Toa.builder().directory(directory).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), GatewaySettings.defaults());
    Identities identities =
        new Identities(app.admin().records(Identities.STORE), app.state(), app.clock());
    identities.create("operator", PASSWORD.toCharArray(), List.of("toa:operator"));
    identities.create("admin", PASSWORD.toCharArray(), List.of("toa"));
    identities.create("clerk", PASSWORD.toCharArray(), List.of("staff", "toa:metrics"));
  }

  @AfterEach
  void stop() {
    System.getProperties().remove(failing);
    gateway.close();
    app.close();
  }

  @Test
  void page_isOpenToAll_holdsNoData_andForbidsFramingAndForeignCode() throws Exception {
    HttpResponse<String> page = send("GET", Console.ROOT, null, false);
    HttpResponse<String> script = send("GET", Console.ROOT + "console.js", null, false);
    HttpResponse<String> style = send("GET", Console.ROOT + "console.css", null, false);

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
    assertThat(page.headers().firstValue("content-security-policy"))
        .hasValueSatisfying(
            policy ->
                assertThat(policy)
                    .contains("script-src 'self'", "frame-ancestors 'none'")
                    .doesNotContain("unsafe"));
    assertThat(page.headers().firstValue("x-frame-options")).hasValue("DENY");
    assertThat(page.body())
        .contains("console.js", "login-form")
        .doesNotContain("test.sinks", "test.sources");
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("content-type"))
        .hasValue("text/javascript; charset=utf-8");
    assertThat(style.statusCode()).isEqualTo(200);
    assertThat(send("GET", Console.ROOT + "nothing.js", null, false).statusCode()).isEqualTo(404);
    assertThat(send("POST", Console.ROOT, null, false).statusCode()).isEqualTo(405);
  }

  @Test
  void state_withoutCredentials401_withoutTheRole403_withTheRoleOrACoveringOne200()
      throws Exception {
    app.call("test.sources.emit", Request.of(SOURCE, Map.of("n", 7)));

    HttpResponse<String> anonymous = send("GET", Console.STATE, null, false);
    HttpResponse<String> clerk = send("GET", Console.STATE, basic("clerk"), false);
    HttpResponse<String> operator = send("GET", Console.STATE, basic("operator"), false);
    HttpResponse<String> admin = send("GET", Console.STATE, basic("admin"), false);

    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.headers().allValues("www-authenticate")).hasSize(2);
    assertThat(clerk.statusCode()).isEqualTo(403);
    for (HttpResponse<String> refused : List.of(anonymous, clerk)) {
      assertThat(refused.body())
          .contains("toa:operator")
          .doesNotContain("test.sinks", "test.sources", QUEUE);
    }
    assertThat(admin.statusCode()).isEqualTo(200);
    assertThat(operator.statusCode()).isEqualTo(200);
    assertThat(operator.headers().firstValue("cache-control")).hasValue("no-store");
    JsonNode state = JSON.readTree(operator.body());
    assertThat(state.path("context").asText()).isEqualTo("test");
    JsonNode sources = component(state, "test.sources");
    assertThat(sources.path("hosted").asBoolean()).isTrue();
    assertThat(sources.path("operations").get(0).path("name").asText()).isEqualTo("emit");
    assertThat(sources.path("operations").get(0).path("outcomes").path("output").asLong())
        .isEqualTo(1);
    assertThat(sources.path("operations").get(0).path("errors").asLong()).isZero();
    assertThat(sources.path("queues").get(0).path("name").asText())
        .isEqualTo("test.sources..tasks");
    assertThat(component(state, "test.sinks").path("queues").findValuesAsString("name"))
        .contains(QUEUE);
    assertThat(state.path("outbox").get(0).path("component").asText()).isEqualTo("test.sources");
  }

  @Test
  void replay_parkedMessage_onlyWithTheRoleAndTheHeader_thenHandledOnceTheReceiverIsFixed()
      throws Exception {
    System.setProperty(failing, "true");
    app.call("test.sources.emit", Request.of(SOURCE, Map.of("n", 7)));
    JsonNode parked =
        await()
            .atMost(PATIENCE)
            .until(() -> state().path("parked").path("rows"), p -> p.size() == 1)
            .get(0);
    assertThat(parked.path("queue").asText()).isEqualTo(QUEUE);
    assertThat(parked.path("code").asText()).isEqualTo("SYSTEM");
    assertThat(parked.path("reason").asText()).contains("failing, as the test asks");
    assertThat(parked.path("attempts").asInt()).isEqualTo(1);
    // parked at its first failure: it first failed when it was parked
    assertThat(java.time.Instant.parse(parked.path("firstFailed").asText()))
        .isEqualTo(java.time.Instant.parse(parked.path("parked").asText()));
    assertThat(parked.has("payload"))
        .as("a page's rows leave the payload to the message")
        .isFalse();
    assertThat(message(parked.path("id").asText()).path("payload").asText()).contains("\"n\":7");
    String replay = Console.REPLAY + "?id=" + parked.path("id").asText();

    assertThat(send("POST", replay, null, true).statusCode()).isEqualTo(401);
    assertThat(send("POST", replay, basic("clerk"), true).statusCode()).isEqualTo(403);
    HttpResponse<String> crossSite = send("POST", replay, basic("operator"), false);
    assertThat(crossSite.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(crossSite.body()).path("code").asText()).isEqualTo("CROSS_SITE");
    assertThat(send("GET", replay, basic("operator"), true).statusCode()).isEqualTo(405);
    assertThat(state().path("parked").path("total").asInt())
        .as("nothing refused moved the message")
        .isEqualTo(1);

    System.getProperties().remove(failing);
    HttpResponse<String> replayed = send("POST", replay, basic("operator"), true);
    assertThat(replayed.statusCode()).as(replayed.body()).isEqualTo(200);
    assertThat(JSON.readTree(replayed.body()).path("replayed").asInt()).isEqualTo(1);
    JsonNode sink =
        await()
            .atMost(PATIENCE)
            .until(
                () -> operation(state(), "test.sinks"),
                o -> o.path("outcomes").path("output").asLong() == 1);
    assertThat(sink.path("errors").asLong()).isEqualTo(1);
    assertThat(state().path("parked").path("total").asInt()).isZero();
    HttpResponse<String> again = send("POST", replay, basic("operator"), true);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(again.body()).contains("no parked message has the id");
  }

  @Test
  void redeliver_anEntry_deliversItAgain_andUnknownOrMalformedRequestsAreRefused()
      throws Exception {
    app.call("test.sources.emit", Request.of(SOURCE, Map.of("n", 7)));
    await()
        .atMost(PATIENCE)
        .until(
            () -> operation(state(), "test.sinks").path("outcomes").path("output").asLong() == 1);
    String entry = state().path("outbox").get(0).path("id").asText();

    HttpResponse<String> redelivered =
        send("POST", Console.REDELIVER + "?id=" + entry, basic("operator"), true);

    assertThat(redelivered.statusCode()).as(redelivered.body()).isEqualTo(200);
    assertThat(JSON.readTree(redelivered.body()).path("component").asText())
        .isEqualTo("test.sources");
    await()
        .atMost(PATIENCE)
        .until(
            () -> operation(state(), "test.sinks").path("outcomes").path("output").asLong() == 2);
    assertThat(
            send(
                    "POST",
                    Console.REDELIVER + "?id=ffffffffffffffffffffffffffffffff",
                    basic("operator"),
                    true)
                .statusCode())
        .isEqualTo(404);
    assertThat(send("POST", Console.REDELIVER, basic("operator"), true).statusCode())
        .isEqualTo(400);
    assertThat(
            send("POST", Console.REPLAY + "?id=x&all=true", basic("operator"), true).statusCode())
        .isEqualTo(400);
    assertThat(send("POST", Console.REPLAY + "?colour=red", basic("operator"), true).statusCode())
        .isEqualTo(400);
    HttpResponse<String> all = send("POST", Console.REPLAY + "?all=true", basic("operator"), true);
    assertThat(JSON.readTree(all.body()).path("replayed").asInt()).isZero();
  }

  @Test
  void parked_filteredSearchedAndPaged_onTheServer_withTheCountsBeside() throws Exception {
    System.setProperty(failing, "true");
    for (int n = 1; n <= 5; n++)
      app.call("test.sources.emit", Request.of("%032x".formatted(n), Map.of("n", n)));
    await().atMost(PATIENCE).until(() -> state().path("parked").path("total").asInt() == 5);
    JsonNode all = state().path("parked");
    String operation = all.path("rows").get(0).path("operation").asText();

    assertThat(all.path("matching").asInt()).isEqualTo(5);
    assertThat(all.path("size").asInt()).isEqualTo(ConsoleState.PAGE);
    assertThat(all.path("components").path("test.sinks").asInt()).isEqualTo(5);
    assertThat(all.path("operations").path(operation).asInt()).isEqualTo(5);
    assertThat(all.path("codes").path("SYSTEM").asInt()).isEqualTo(5);
    assertThat(operation).startsWith("test.sinks.");
    for (JsonNode queue : component(state(""), "test.sinks").path("queues"))
      assertThat(queue.path("parked").asInt())
          .as(queue.path("name").asText())
          .isEqualTo(queue.path("name").asText().equals(QUEUE) ? 5 : 0);

    JsonNode page = state("?size=2&offset=2").path("parked");
    assertThat(page.path("matching").asInt()).isEqualTo(5);
    assertThat(page.path("rows").findValuesAsString("id"))
        .containsExactly(
            all.path("rows").get(2).path("id").asText(),
            all.path("rows").get(3).path("id").asText());
    assertThat(state("?offset=5").path("parked").path("rows").size()).isZero();

    String message = all.path("rows").get(1).path("message").asText();
    JsonNode found = state("?search=" + message.substring(4, 16).toUpperCase()).path("parked");
    assertThat(found.path("matching").asInt()).isEqualTo(1);
    assertThat(found.path("total").asInt()).isEqualTo(5);
    assertThat(found.path("rows").get(0).path("message").asText()).isEqualTo(message);

    assertThat(state("?component=test.sinks&code=system").path("parked").path("matching").asInt())
        .isEqualTo(5);
    assertThat(state("?operation=" + operation).path("parked").path("matching").asInt())
        .isEqualTo(5);
    assertThat(state("?code=CONTRACT").path("parked").path("matching").asInt()).isZero();
    assertThat(state("?component=test.sources").path("parked").path("matching").asInt()).isZero();
    assertThat(state("?since=2999-01-01T00:00:00Z").path("parked").path("matching").asInt())
        .isZero();

    for (String bad :
        List.of("?since=yesterday", "?size=0", "?size=201", "?offset=-1", "?colour=red")) {
      HttpResponse<String> refused = send("GET", Console.STATE + bad, basic("operator"), false);
      assertThat(refused.statusCode()).as(bad).isEqualTo(400);
      String key = bad.substring(1, bad.indexOf('='));
      assertThat(JSON.readTree(refused.body()).path("detail").asText()).as(bad).contains(key);
    }
  }

  @Test
  void message_isOneParkedMessageWhole_andAnUnknownIdIs404() throws Exception {
    System.setProperty(failing, "true");
    app.call("test.sources.emit", Request.of(SOURCE, Map.of("n", 7)));
    await().atMost(PATIENCE).until(() -> state().path("parked").path("total").asInt() == 1);
    JsonNode row = state().path("parked").path("rows").get(0);

    JsonNode whole = message(row.path("id").asText());

    assertThat(whole.path("message").asText()).isEqualTo(row.path("message").asText());
    assertThat(whole.path("operation").asText()).isEqualTo(row.path("operation").asText());
    assertThat(whole.path("reason").asText()).isEqualTo(row.path("reason").asText());
    assertThat(whole.path("payload").asText()).contains("\"n\":7");
    assertThat(send("GET", Console.MESSAGE + "?id=nothing", basic("operator"), false).statusCode())
        .isEqualTo(404);
    assertThat(send("GET", Console.MESSAGE, basic("operator"), false).statusCode()).isEqualTo(400);
    assertThat(send("GET", Console.MESSAGE + "?id=x", basic("clerk"), false).statusCode())
        .isEqualTo(403);
  }

  @Test
  void message_showsEachFailureTheLastTraceAndWhoReplayedOrDiscarded() throws Exception {
    gateway.close();
    app.close();
    SourcesAndSinks.write(directory, failing, "[0, 0]"); // two retries at once, then parked
    app = Toa.builder().directory(directory).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), GatewaySettings.defaults());
    System.setProperty(failing, "true");
    app.call("test.sources.emit", Request.of(SOURCE, Map.of("n", 7)));
    await().atMost(PATIENCE).until(() -> state().path("parked").path("total").asInt() == 1);
    String id = state().path("parked").path("rows").get(0).path("id").asText();

    JsonNode parked = message(id);

    assertThat(parked.path("failures").findValuesAsString("code"))
        .containsExactly("SYSTEM", "SYSTEM", "SYSTEM");
    assertThat(parked.path("failures").findValues("attempt").stream().map(JsonNode::asInt))
        .containsExactly(1, 2, 3);
    assertThat(parked.path("failures").get(0).path("reason").asText())
        .contains("failing, as the test asks");
    assertThat(parked.path("trace").asText())
        .contains("\tat ")
        .doesNotContain("failing, as the test asks");
    assertThat(parked.path("actions")).isEmpty();

    assertThat(send("POST", Console.REPLAY + "?id=" + id, basic("operator"), true).statusCode())
        .isEqualTo(200);
    // it fails again and, its retries spent, is parked again at its fourth attempt: its record
    // keeps the failures of both rounds and the replay
    JsonNode again =
        await()
            .atMost(PATIENCE)
            .until(
                () -> {
                  JsonNode rows = state().path("parked").path("rows");
                  return rows.isEmpty() ? null : message(rows.get(0).path("id").asText());
                },
                m -> m != null && m.path("failures").size() == 4);
    assertThat(again.path("failures").findValues("attempt").stream().map(JsonNode::asInt))
        .containsExactly(1, 2, 3, 4);
    assertThat(again.path("actions")).hasSize(1);
    assertThat(again.path("actions").get(0).path("action").asText()).isEqualTo("replayed");
    assertThat(again.path("actions").get(0).path("by").asText())
        .isEqualTo("'operator' at the console");

    io.toa4j.spi.Parked held = app.admin().parked().get(0);
    assertThat(
            send(
                    "POST",
                    Console.DISCARD + "?id=" + held.id() + "&reason=not+ours",
                    basic("admin"),
                    true)
                .statusCode())
        .isEqualTo(200);
    assertThat(app.admin().history(held).orElseThrow().actions())
        .extracting(a -> a.action() + " by " + a.by() + " " + a.reason().orElse(""))
        .containsExactly(
            "replayed by 'operator' at the console ",
            "discarded by 'admin' at the console not ours");
  }

  @Test
  void aParkedContinuousRun_showsItsJournal_andRestartRunsItFromTheTop() throws Exception {
    gateway.close();
    app.close();
    Notes.write(
        directory,
        "components/test.flow/manifest.toa.yaml",
        """
        operations:
          go: { type: effect, input: { type: object } }
        receivers:
          test.sources.created: go
        continuity:
          go: 600
        """);
    Notes.write(
        directory,
        "components/test.flow/operations/Go.java",
        """
        package test.flow.operations;
        public class Go implements io.toa4j.api.Effect<Go.Input> {
          public record Input(Long n) {}
          public Object effect(Input in, io.toa4j.api.Context context) {
            context.now();
            context.step("look", String.class, () -> "looked at " + in.n());
            throw new io.toa4j.api.Failure(io.toa4j.api.Failure.Code.CONTRACT, "the flow refuses " + in.n());
          }
        }
        """);
    app = Toa.builder().directory(directory).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), GatewaySettings.defaults());
    System.setProperty(failing, "true"); // the sinks' receiver parks too
    app.call("test.sources.emit", Request.of(SOURCE, Map.of("n", 7)));
    await().atMost(PATIENCE).until(() -> state().path("parked").path("total").asInt() == 2);
    String id =
        state("?component=test.flow").path("parked").path("rows").get(0).path("id").asText();

    JsonNode journal = message(id).path("journal");

    assertThat(journal.findValuesAsString("asked")).containsExactly("now #1", "step look #1");
    assertThat(journal.get(1).path("bytes").asInt()).isEqualTo("\"looked at 7\"".length());
    String restart = Console.RESTART + "?id=" + id;
    assertThat(send("POST", restart, basic("clerk"), true).statusCode()).isEqualTo(403);
    assertThat(send("POST", restart, basic("operator"), false).statusCode()).isEqualTo(403);
    HttpResponse<String> restarted = send("POST", restart, basic("operator"), true);
    assertThat(restarted.statusCode()).as(restarted.body()).isEqualTo(200);
    assertThat(JSON.readTree(restarted.body()).path("restarted").asInt()).isEqualTo(1);
    assertThat(send("POST", restart, basic("operator"), true).statusCode()).isEqualTo(404);
    JsonNode again =
        await()
            .atMost(PATIENCE)
            .until(
                () -> {
                  JsonNode rows = state("?component=test.flow").path("parked").path("rows");
                  return rows.isEmpty() ? null : message(rows.get(0).path("id").asText());
                },
                m -> m != null && m.path("actions").size() == 1);
    assertThat(again.path("journal").findValuesAsString("asked"))
        .as("run again from the top, it journaled its steps anew")
        .containsExactly("now #1", "step look #1");
    assertThat(again.path("actions").get(0).path("action").asText()).isEqualTo("replayed");
    JsonNode sink = state("?component=test.sinks").path("parked").path("rows").get(0);
    assertThat(message(sink.path("id").asText()).path("journal"))
        .as("a message to an effect that is not continuous has no journal")
        .isEmpty();
  }

  @Test
  void discard_oneOrByFilter_keepsTheReason_andBulkReplayTakesTheFilter() throws Exception {
    System.setProperty(failing, "true");
    for (int n = 1; n <= 4; n++)
      app.call("test.sources.emit", Request.of("%032x".formatted(n), Map.of("n", n)));
    await().atMost(PATIENCE).until(() -> state().path("parked").path("total").asInt() == 4);
    JsonNode rows = state().path("parked").path("rows");
    String first = rows.get(0).path("id").asText();
    String second = rows.get(1).path("message").asText();

    for (String refused :
        List.of(
            "?id=" + first,
            "?id=" + first + "&reason=",
            "?id=" + first + "&reason=" + "x".repeat(Console.REASON + 1),
            "?reason=gone",
            "?reason=gone&id=" + first + "&all=true",
            "?reason=gone&all=yes",
            "?reason=gone&all=true&code=SYSTEM")) {
      HttpResponse<String> answer =
          send("POST", Console.DISCARD + refused, basic("operator"), true);
      assertThat(answer.statusCode()).as(refused + ": " + answer.body()).isEqualTo(400);
    }
    assertThat(
            send("POST", Console.DISCARD + "?reason=gone&all=true", basic("clerk"), true)
                .statusCode())
        .isEqualTo(403);
    assertThat(
            send("POST", Console.DISCARD + "?reason=gone&all=true", basic("operator"), false)
                .statusCode())
        .isEqualTo(403);
    assertThat(state().path("parked").path("total").asInt())
        .as("nothing refused moved a message")
        .isEqualTo(4);

    HttpResponse<String> one =
        send(
            "POST",
            Console.DISCARD + "?id=" + first + "&reason=sent+by+hand",
            basic("operator"),
            true);
    assertThat(one.statusCode()).as(one.body()).isEqualTo(200);
    assertThat(JSON.readTree(one.body()).path("discarded").asInt()).isEqualTo(1);
    assertThat(app.admin().parked()).extracting(p -> p.id()).doesNotContain(first);
    assertThat(
            send(
                    "POST",
                    Console.DISCARD + "?id=" + first + "&reason=again",
                    basic("operator"),
                    true)
                .statusCode())
        .isEqualTo(404);

    HttpResponse<String> searched =
        send(
            "POST",
            Console.DISCARD + "?search=" + second + "&reason=duplicate",
            basic("operator"),
            true);
    assertThat(JSON.readTree(searched.body()).path("discarded").asInt()).isEqualTo(1);
    assertThat(state().path("parked").path("total").asInt()).isEqualTo(2);

    System.getProperties().remove(failing);
    assertThat(
            JSON.readTree(
                    send("POST", Console.REPLAY + "?code=CONTRACT", basic("operator"), true).body())
                .path("replayed")
                .asInt())
        .isZero();
    HttpResponse<String> replayed =
        send("POST", Console.REPLAY + "?component=test.sinks", basic("operator"), true);
    assertThat(JSON.readTree(replayed.body()).path("replayed").asInt()).isEqualTo(2);
    await()
        .atMost(PATIENCE)
        .until(
            () -> operation(state(), "test.sinks").path("outcomes").path("output").asLong() == 2);
    assertThat(state().path("parked").path("total").asInt()).isZero();
  }

  @Test
  void operatorRole_isChecked_andAnotherOneIsHonoured() throws Exception {
    assertThatThrownBy(() -> GatewaySettings.defaults().withOperatorRole("ops role"))
        .hasMessageContaining("operatorRole 'ops role' is not a role scope");
    gateway.close();
    gateway =
        Gateway.start(
            app,
            new InetSocketAddress("127.0.0.1", 0),
            GatewaySettings.defaults().withOperatorRole("staff"));

    assertThat(send("GET", Console.STATE, basic("clerk"), false).statusCode()).isEqualTo(200);
    assertThat(send("GET", Console.STATE, basic("operator"), false).statusCode()).isEqualTo(403);
  }

  private JsonNode state() throws Exception {
    return state("");
  }

  private JsonNode state(String query) throws Exception {
    HttpResponse<String> response = send("GET", Console.STATE + query, basic("operator"), false);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private JsonNode message(String id) throws Exception {
    HttpResponse<String> response =
        send("GET", Console.MESSAGE + "?id=" + id, basic("operator"), false);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  private static JsonNode component(JsonNode state, String label) {
    for (JsonNode component : state.path("components"))
      if (component.path("label").asText().equals(label)) return component;
    throw new AssertionError("no component " + label + " in " + state);
  }

  private static JsonNode operation(JsonNode state, String label) {
    return component(state, label).path("operations").get(0);
  }

  private HttpResponse<String> send(
      String method, String path, String authorization, boolean header) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) request.header("authorization", authorization);
    if (header) request.header(Console.HEADER, "1");
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String name) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((name + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  }
}
