package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.runtime.StartupException;
import io.toa4j.runtime.Toa;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Routes as Toa writes them, at a real gateway over a real SQLite context: a method mapped to
 * {@code { endpoint, query }} (open and closed criteria and sort, the window's defaults and ranges,
 * selectors), route variables other than {@code :id} (criteria on GET and PUT, input on POST), and
 * {@code io:output: true|false}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ToaRoutesGatewayTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT = HttpClient.newHttpClient();

  @TempDir static Path directory;
  Toa app;
  Gateway gateway;

  static Path context(Path directory) {
    Notes.write(directory, "context.toa.yaml", "name: test\n");
    Notes.write(
        directory,
        "components/test.pots/manifest.toa.yaml",
        """
        entity:
          properties:
            name: string
            state: { type: string, enum: [hot, cold] }
            rank: integer
            checkout: string
        operations:
          transit:
            concurrency: retry
          create: { forward: transit, query: false }
          heat:
            forward: transit
            query: true
            input: { state: .state }
          total:
            type: computation
            output: integer
          greet:
            type: computation
            input: { type: object, properties: { name: { type: string } }, required: [name], additionalProperties: false }
            output: string
        exposition:
          auth:anonymous: true
          io:output: [name, state, rank, checkout]
          /:
            POST: create
            GET:
              endpoint: enumerate
              query:
                criteria: rank>0;
                sort: rank:desc;
                limit: { value: 2, range: [1, 3] }
                selectors: [state, name]
          /hot:
            GET:
              endpoint: enumerate
              query:
                criteria: state==hot
                sort: rank:desc
          /top:
            GET:
              endpoint: observe
              query:
                sort: rank:desc
                limit: 1
          /checkouts/:checkout:
            GET: observe
            PUT: heat
            POST: create
          /total:
            io:output: true
            GET: total
          /quiet:
            io:output: false
            POST: create
          /greeting:
            GET:
              endpoint: greet
              io:output: true
              query: { parameters: [name] }
        """);
    Notes.write(
        directory,
        "components/plants/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            name: string
        exposition:
          auth:anonymous: true
          /:id:
            io:output: [id]
            GET: observe
        """);
    Notes.write(
        directory,
        "components/test.pots/operations/Greet.java",
        """
        package test.pots.operations;
        public class Greet implements io.toa4j.api.Computation<Greet.Input> {
          public record Input(String name) {}
          public Object computation(Input input) { return "hello " + input.name(); }
        }
        """);
    Notes.write(
        directory,
        "components/test.pots/operations/Total.java",
        """
        package test.pots.operations;
        public class Total implements io.toa4j.api.Computation<Void> {
          public Object computation(Void input) { return 42; }
        }
        """);
    return directory;
  }

  @BeforeAll
  void start() throws Exception {
    app = Toa.builder().directory(context(directory)).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), GatewaySettings.defaults());
    pot("{\"name\": \"ash\", \"state\": \"hot\", \"rank\": 5}");
    pot("{\"name\": \"birch\", \"state\": \"cold\", \"rank\": 9}");
    pot("{\"name\": \"cedar\", \"state\": \"hot\", \"rank\": 7}");
    pot("{\"name\": \"dust\", \"state\": \"cold\", \"rank\": 0}");
  }

  @AfterAll
  void stop() {
    gateway.close();
    app.close();
  }

  private void pot(String body) throws Exception {
    assertThat(send("POST", "/test/pots/", body).statusCode()).isEqualTo(201);
  }

  HttpResponse<String> send(String method, String path, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) request.header("content-type", "application/json");
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private List<String> names(String path) throws Exception {
    HttpResponse<String> response = send("GET", path, null);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    JSON.readTree(response.body()).forEach(pot -> names.add(pot.path("name").asString()));
    return names;
  }

  private static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private void refused(String method, String path, String body, int status, String... detail)
      throws Exception {
    HttpResponse<String> response = send(method, path, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(JSON.readTree(response.body()).path("detail").asString()).contains(detail);
  }

  @Test
  void aQueryBlock_appliesItsCriteriaSortAndWindow_openToTheRequestsWithinItsSelectorsAndRanges()
      throws Exception {
    // rank>0 and rank:desc are the block's; limit 2 its default
    assertThat(names("/test/pots/")).containsExactly("birch", "cedar");
    assertThat(names("/test/pots/?limit=3")).containsExactly("birch", "cedar", "ash");
    assertThat(names("/test/pots/?limit=3&criteria=" + q("state==hot")))
        .containsExactly("cedar", "ash");
    assertThat(names("/test/pots/?limit=3&omit=1&sort=name:desc")).containsExactly("cedar", "ash");
    assertThat(names("/test/pots/?limit=3&criteria=" + q("state==cold,name==ash") + "&sort=name"))
        .containsExactly("birch", "ash");

    refused("GET", "/test/pots/?limit=4", null, 400, "limit must be from 1 to 3");
    refused("GET", "/test/pots/?criteria=" + q("rank>1"), null, 400, "'rank'", "[state, name]");
    refused("GET", "/test/pots/?sort=rank", null, 400, "'rank'");
    refused("GET", "/test/pots/?criteria=" + q("state=="), null, 400, "not RSQL");
    refused(
        "GET",
        "/test/pots/?version=1&criteria=" + q("name==x") + "&criteria=" + q("name==y"),
        null,
        400,
        "twice");
  }

  @Test
  void aComponentOfTheDefaultNamespace_isServedAtItsName_asInToa() throws Exception {
    String id = "0123456789abcdef0123456789abcdef";
    HttpResponse<String> read = send("GET", "/plants/" + id + "/", null);
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    assertThat(JSON.readTree(read.body()).path("id").asString()).isEqualTo(id);
    assertThat(send("GET", "/default/plants/" + id + "/", null).statusCode()).isEqualTo(404);
  }

  @Test
  void closedCriteriaAndSort_refuseTheRequestsOwn() throws Exception {
    assertThat(names("/test/pots/hot/")).containsExactly("cedar", "ash");
    refused("GET", "/test/pots/hot/?criteria=" + q("name==ash"), null, 400, "closed");
    refused("GET", "/test/pots/hot/?sort=name", null, 400, "closed");
  }

  @Test
  void anObservationWithASort_answersTheFirstRecord_andTakesNoWindowFromTheRequest()
      throws Exception {
    HttpResponse<String> top = send("GET", "/test/pots/top/", null);
    assertThat(top.statusCode()).as(top.body()).isEqualTo(200);
    assertThat(JSON.readTree(top.body()).path("name").asString()).isEqualTo("birch");
    refused("GET", "/test/pots/top/?limit=2", null, 400, "answers one record");
  }

  @Test
  void routeVariables_selectOnGetAndPut_andAreInputOnPost() throws Exception {
    assertThat(
            send(
                    "POST",
                    "/test/pots/checkouts/co_1/",
                    "{\"name\": \"elm\", \"rank\": 0, \"checkout\": \"ignored\"}")
                .statusCode())
        .isEqualTo(201);
    HttpResponse<String> read = send("GET", "/test/pots/checkouts/co_1/", null);
    assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
    JsonNode elm = JSON.readTree(read.body());
    assertThat(elm.path("name").asString()).isEqualTo("elm");
    assertThat(elm.path("checkout").asString()).isEqualTo("co_1");

    HttpResponse<String> heated =
        send("PUT", "/test/pots/checkouts/co_1/", "{\"state\": \"cold\"}");
    assertThat(heated.statusCode()).as(heated.body()).isEqualTo(200);
    assertThat(JSON.readTree(heated.body()).path("state").asString()).isEqualTo("cold");
    assertThat(heated.headers().firstValue("etag")).contains("\"2\"");

    assertThat(send("GET", "/test/pots/checkouts/co_2/", null).statusCode()).isEqualTo(404);
    refused("PUT", "/test/pots/checkouts/co_2/", "{\"state\": \"hot\"}", 404, "checkout");
    // a value with RSQL's reserved characters is one value, not more criteria
    assertThat(send("GET", "/test/pots/checkouts/" + q("x';name=='elm") + "/", null).statusCode())
        .isEqualTo(404);
    refused("POST", "/test/pots/checkouts/co_3/", "[1]", 400, "object");
  }

  @Test
  void ioOutput_trueShowsTheAnswerWhole_falseShowsNone() throws Exception {
    HttpResponse<String> total = send("GET", "/test/pots/total/", null);
    assertThat(total.statusCode()).as(total.body()).isEqualTo(200);
    assertThat(total.body()).isEqualTo("42");

    HttpResponse<String> quiet =
        send("POST", "/test/pots/quiet/", "{\"name\": \"fir\", \"rank\": 0}");
    assertThat(quiet.statusCode()).isEqualTo(201);
    assertThat(quiet.body()).isEmpty();
  }

  @Test
  void parameters_ofTheQueryBlock_areInputFromTheQueryString() throws Exception {
    HttpResponse<String> greeting = send("GET", "/test/pots/greeting/?name=" + q("Ann Lee"), null);
    assertThat(greeting.statusCode()).as(greeting.body()).isEqualTo(200);
    assertThat(JSON.readTree(greeting.body()).asString()).isEqualTo("hello Ann Lee");
    refused("GET", "/test/pots/greeting/?nom=x", null, 400, "'nom' is not declared", "name");
    refused("GET", "/test/pots/greeting/", null, 400, "requires an input");
  }

  @Test
  void aBlockOrAVariableThatDoesNotFitTheEntity_stopsTheGatewayNamingTheRoute(@TempDir Path other)
      throws Exception {
    Path broken = context(other);
    Path manifest = broken.resolve("components/test.pots/manifest.toa.yaml");
    Files.writeString(
        manifest,
        Files.readString(manifest).replace("criteria: state==hot", "criteria: colour==hot"));
    try (Toa wrong = Toa.builder().directory(broken).build()) {
      assertThatThrownBy(
              () ->
                  Gateway.start(
                      wrong, new InetSocketAddress("127.0.0.1", 0), GatewaySettings.defaults()))
          .isInstanceOf(StartupException.class)
          .hasMessageContainingAll("GET /test/pots/hot", "no property 'colour'");
    }
    Files.writeString(
        manifest,
        Files.readString(manifest)
            .replace("criteria: colour==hot", "criteria: state==hot")
            .replace("/checkouts/:checkout", "/checkouts/:basket"));
    try (Toa wrong = Toa.builder().directory(broken).build()) {
      assertThatThrownBy(
              () ->
                  Gateway.start(
                      wrong, new InetSocketAddress("127.0.0.1", 0), GatewaySettings.defaults()))
          .isInstanceOf(StartupException.class)
          .hasMessageContainingAll(":basket", "no property 'basket'");
    }
  }
}
