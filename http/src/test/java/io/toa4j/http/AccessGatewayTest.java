package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.time.TestClock;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Identities, credentials and roles at a real gateway on a free port, over a real SQLite context
 * whose clock the test moves: every route of {@link Shelf} with every kind of credentials.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccessGatewayTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT = HttpClient.newHttpClient();
  static final String RECORD = "5e1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  static final String PASSWORD = "correct horse battery staple";

  @TempDir static Path directory;
  final TestClock clock = new TestClock();
  Toa app;
  Gateway gateway;
  Identities identities;
  Identities.Identity keeper; // store: covers every store:* route
  Identities.Identity teller; // store:wallets only
  Identities.Identity stranger; // roles that cover nothing here
  Identities.Identity owner; // no role; its id is the record's in the by-id route
  String expired; // a bearer token of the keeper, expired by the clock

  @BeforeAll
  void start() {
    app =
        Toa.builder()
            .directory(Shelf.context(directory))
            .options(Options.defaults().withClock(clock))
            .build();
    // every wrong password here comes from one address: the limits on guessing are
    // SlowClientsTest's
    gateway =
        Gateway.start(
            app,
            new InetSocketAddress("127.0.0.1", 0),
            GatewaySettings.defaults().withGuesses(10_000, 10_000, Duration.ofMinutes(1)));
    // the same store the gateway reads, through another instance: what the command line does
    identities = new Identities(app.admin().records(Identities.STORE), app.state(), clock);
    keeper =
        identities.create(
            "keeper",
            PASSWORD.toCharArray(),
            List.of("store", GatewaySettings.DEFAULT_METRICS_ROLE));
    teller =
        identities.create("teller@example.com", PASSWORD.toCharArray(), List.of("store:wallets"));
    stranger = identities.create("stranger", PASSWORD.toCharArray(), List.of("store:wal", "other"));
    owner = identities.create("owner", PASSWORD.toCharArray(), List.of());
    expired = identities.issue("keeper", Duration.ofMinutes(1)).token();
    clock.advance(Duration.ofMinutes(1));
  }

  @AfterAll
  void stop() {
    gateway.close();
    app.close();
  }

  /** The kinds of credentials a request may carry. */
  enum Credentials {
    NONE,
    WRONG_PASSWORD,
    EXPIRED_TOKEN,
    WITHOUT_ROLE,
    COVERING
  }

  /** A route of the shelf with what each kind of credentials gets, as its directives declare. */
  record Case(
      String route,
      String record,
      String coveringName,
      boolean bearer,
      int none,
      int wrong,
      int expired,
      int withoutRole,
      int covering) {}

  List<Case> cases() {
    String mine = owner.id();
    return List.of(
        new Case(Shelf.BY_ROLE, RECORD, "keeper", false, 401, 401, 401, 403, 200),
        new Case(Shelf.BY_NARROWER_ROLE, RECORD, "keeper", false, 401, 401, 401, 403, 200),
        new Case(
            Shelf.BY_NARROWER_ROLE, RECORD, "teller@example.com", true, 401, 401, 401, 403, 200),
        new Case(Shelf.BY_ID, mine, "owner", false, 401, 401, 401, 403, 200),
        new Case(Shelf.BY_ID, mine, "owner", true, 401, 401, 401, 403, 200),
        new Case(Shelf.BY_ID, RECORD, "keeper", true, 401, 401, 401, 403, 200),
        // as in Toa: anonymous admits only a request without credentials (the keeper is admitted by
        // the role it inherits from /:id), anyone every identity
        new Case(Shelf.OPEN, RECORD, "keeper", false, 200, 401, 401, 403, 200),
        new Case(Shelf.ANYONE, RECORD, "keeper", false, 401, 401, 401, 200, 200),
        new Case(Shelf.PUBLIC, RECORD, "keeper", false, 200, 401, 401, 200, 200),
        new Case(Shelf.CLOSED, RECORD, "keeper", false, 401, 401, 401, 403, 403));
  }

  @TestFactory
  List<DynamicTest> everyRoute_withEveryKindOfCredentials_answersAsItsDirectivesDeclare() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Case c : cases()) {
      String path = "/test/shelf/" + c.record() + "/" + c.route();
      Map<Credentials, Integer> expected =
          Map.of(
              Credentials.NONE,
              c.none(),
              Credentials.WRONG_PASSWORD,
              c.wrong(),
              Credentials.EXPIRED_TOKEN,
              c.expired(),
              Credentials.WITHOUT_ROLE,
              c.withoutRole(),
              Credentials.COVERING,
              c.covering());
      for (Credentials credentials : Credentials.values()) {
        String covering = c.bearer() ? bearer(c.coveringName()) : basic(c.coveringName(), PASSWORD);
        String header =
            switch (credentials) {
              case NONE -> null;
              case WRONG_PASSWORD -> basic(c.coveringName(), PASSWORD + "!");
              case EXPIRED_TOKEN -> "Bearer " + expired;
              case WITHOUT_ROLE -> basic("stranger", PASSWORD);
              case COVERING -> covering;
            };
        tests.add(
            DynamicTest.dynamicTest(
                "GET "
                    + path
                    + " "
                    + credentials
                    + " as "
                    + c.coveringName()
                    + (c.bearer() ? " (bearer)" : ""),
                () -> {
                  HttpResponse<String> response = get(path, header);
                  int status = expected.get(credentials);
                  assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
                  if (status == 200)
                    assertThat(JSON.readTree(response.body()).path("id").asString())
                        .isEqualTo(c.record());
                  if (status == 401) assertChallenges(response);
                  if (status >= 400)
                    assertThat(JSON.readTree(response.body()).path("detail").asString())
                        .isNotBlank();
                }));
      }
    }
    return tests;
  }

  @Test
  void byId_anotherIdentitysRecord_is403_evenForTheOwnerOfAnother() throws Exception {
    HttpResponse<String> response =
        get("/test/shelf/" + RECORD + "/" + Shelf.BY_ID, basic("owner", PASSWORD));

    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(response.body()).path("detail").asString())
        .contains("the identity whose id is :id", "'owner' holds no role");
  }

  @Test
  void aNarrowerRole_doesNotCoverTheWiderRoute() throws Exception {
    HttpResponse<String> response =
        get("/test/shelf/" + RECORD + "/", bearer("teller@example.com"));

    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(JSON.readTree(response.body()).path("detail").asString())
        .contains("the roles [store]", "[store:wallets]");
  }

  @Test
  void unauthorized_carriesBasicAndBearerChallenges_andARejectedTokenSaysInvalidToken()
      throws Exception {
    HttpResponse<String> none = get("/test/shelf/" + RECORD + "/", null);
    HttpResponse<String> badToken = get("/test/shelf/" + RECORD + "/", "Bearer " + expired);

    assertThat(none.headers().allValues("www-authenticate"))
        .containsExactlyInAnyOrder(
            "Basic realm=\"toa\", charset=\"UTF-8\"", "Bearer realm=\"toa\"");
    assertThat(JSON.readTree(none.body()).path("detail").asString())
        .contains("the roles [store]", "send credentials");
    assertThat(badToken.headers().allValues("www-authenticate"))
        .contains("Bearer realm=\"toa\", error=\"invalid_token\"");
    assertThat(JSON.readTree(badToken.body()).path("detail").asString()).contains("expired at");
  }

  @Test
  void malformedCredentials_are401SayingWhatIsWrong() throws Exception {
    String path = "/test/shelf/" + RECORD + "/";
    expect401(get(path, "Basic !!!"), "not base64");
    expect401(
        get(
            path,
            "Basic "
                + Base64.getEncoder().encodeToString("keeper".getBytes(StandardCharsets.UTF_8))),
        "name:password");
    expect401(
        get(
            path,
            "Basic " + Base64.getEncoder().encodeToString(new byte[] {(byte) 0xff, ':', 'x'})),
        "not UTF-8");
    expect401(get(path, basic("nobody", PASSWORD)), "the name or the password is wrong");
    expect401(get(path, basic("keeper", "")), "the name or the password is wrong");
    expect401(get(path, "Bearer"), "not a JWT");
    expect401(get(path, "Bearer abc.def"), "not a JWT");
    String real = bearer("keeper");
    expect401(
        get(path, real.substring(0, real.lastIndexOf('.') + 1) + "A".repeat(43)),
        "signature does not match");
    expect401(get(path, "Digest username=keeper"), "'Digest' is not accepted");
  }

  @Test
  void credentials_areCheckedBeforeTheBodyIsParsed_andNothingChanges() throws Exception {
    String path = "/test/shelf/" + RECORD + "/";
    HttpResponse<String> anonymous = send("PUT", path, null, "application/json", "{\"text\": ");
    HttpResponse<String> stranger =
        send("PUT", path, basic("stranger", PASSWORD), "application/json", "{\"text\": ");
    HttpResponse<String> strangerWithGoodBody =
        send("PUT", path, basic("stranger", PASSWORD), "application/json", "{\"text\": \"x\"}");
    HttpResponse<String> keeperWithBadBody =
        send("PUT", path, basic("keeper", PASSWORD), "application/json", "{\"text\": ");

    assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
    assertThat(stranger.statusCode()).as(stranger.body()).isEqualTo(403);
    assertThat(strangerWithGoodBody.statusCode()).as(strangerWithGoodBody.body()).isEqualTo(403);
    assertThat(keeperWithBadBody.statusCode())
        .as("granted, the body is read: %s", keeperWithBadBody.body())
        .isEqualTo(400);
    JsonNode record = JSON.readTree(get(path, basic("keeper", PASSWORD)).body());
    assertThat(record.has("text")).as("nothing was written: %s", record).isFalse();
  }

  @Test
  void token_forBasicCredentials_isIssued_andOpensWhatTheIdentityMayTake() throws Exception {
    HttpResponse<String> issued =
        send("POST", "/.toa/token", basic("keeper", PASSWORD), null, null);

    assertThat(issued.statusCode()).as(issued.body()).isEqualTo(200);
    assertThat(issued.headers().firstValue("cache-control")).contains("no-store");
    JsonNode body = JSON.readTree(issued.body());
    assertThat(body.path("type").asString()).isEqualTo("Bearer");
    assertThat(body.path("id").asString()).isEqualTo(keeper.id());
    assertThat(body.path("expires").asString())
        .isEqualTo(clock.instant().plus(Identities.DEFAULT_TTL).toString());
    String token = "Bearer " + body.path("token").asString();
    assertThat(get("/test/shelf/" + RECORD + "/", token).statusCode()).isEqualTo(200);
    assertThat(get("/test/shelf/" + RECORD + "/" + Shelf.CLOSED, token).statusCode())
        .isEqualTo(403);
  }

  @Test
  void token_refusedWithoutBasicCredentials_orForAnotherMethod() throws Exception {
    HttpResponse<String> none = send("POST", "/.toa/token", null, null, null);
    HttpResponse<String> wrong = send("POST", "/.toa/token", basic("keeper", "nope"), null, null);
    HttpResponse<String> withAToken = send("POST", "/.toa/token", bearer("keeper"), null, null);
    HttpResponse<String> get = send("GET", "/.toa/token", basic("keeper", PASSWORD), null, null);

    expect401(none, "Basic");
    expect401(wrong, "the name or the password is wrong");
    expect401(withAToken, "issues tokens for Basic credentials");
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("allow")).contains("POST, DELETE");
  }

  @Test
  void token_revokedByDelete_isRefusedFromThenOn_whileTheIdentitysOtherTokensStayOpen()
      throws Exception {
    String path = "/test/shelf/" + RECORD + "/";
    String token = "Bearer " + identities.issue("keeper", Duration.ofMinutes(7)).token();
    String other = "Bearer " + identities.issue("keeper", Duration.ofMinutes(8)).token();
    assertThat(get(path, token).statusCode()).isEqualTo(200);

    HttpResponse<String> revoked = send("DELETE", "/.toa/token", token, null, null);

    assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);
    assertThat(JSON.readTree(revoked.body()).path("revoked").asBoolean()).isTrue();
    expect401(get(path, token), "the bearer token was revoked (logged out)");
    expect401(send("DELETE", "/.toa/token", token, null, null), "was revoked");
    assertThat(get(path, other).statusCode()).isEqualTo(200);
    expect401(
        send("DELETE", "/.toa/token", basic("keeper", PASSWORD), null, null),
        "revokes the bearer token a DELETE carries");
    expect401(send("DELETE", "/.toa/token", null, null, null), "revokes the bearer token");
  }

  @Test
  void revokedTokens_pastTheBound_refuseEveryTokenOfTheIdentityIssuedBefore() throws Exception {
    Identities.Identity made = identities.create("busy", PASSWORD.toCharArray(), List.of("store"));
    String path = "/test/shelf/" + RECORD + "/";
    String earlier = "Bearer " + identities.issue(made.name(), Duration.ofHours(2)).token();
    clock.advance(Duration.ofSeconds(1));
    for (int i = 1; i <= Identities.MAX_REVOKED; i++) {
      String token = "Bearer " + identities.issue(made.name(), Duration.ofMinutes(i)).token();
      assertThat(send("DELETE", "/.toa/token", token, null, null).statusCode()).isEqualTo(200);
    }
    assertThat(get(path, earlier).statusCode()).as("within the bound").isEqualTo(200);

    String last = "Bearer " + identities.issue(made.name(), Duration.ofMinutes(90)).token();
    assertThat(send("DELETE", "/.toa/token", last, null, null).statusCode()).isEqualTo(200);

    expect401(get(path, earlier), "was revoked");
    expect401(get(path, last), "was revoked");
    String later = "Bearer " + identities.issue(made.name(), Duration.ofMinutes(91)).token();
    assertThat(get(path, later).statusCode()).as("issued at the cut").isEqualTo(200);
  }

  @Test
  void rolesChangedElsewhere_takeEffectOnTheNextRequest_forBasicAndTokens() throws Exception {
    Identities.Identity made = identities.create("temp", PASSWORD.toCharArray(), List.of());
    String path = "/test/shelf/" + RECORD + "/";
    String token = bearer("temp");
    assertThat(get(path, basic("temp", PASSWORD)).statusCode()).isEqualTo(403);

    identities.changeRoles(made.name(), List.of("store"), List.of());
    assertThat(get(path, basic("temp", PASSWORD)).statusCode()).isEqualTo(200);
    assertThat(get(path, token).statusCode()).isEqualTo(200);

    identities.changeRoles(made.name(), List.of(), List.of("store"));
    assertThat(get(path, basic("temp", PASSWORD)).statusCode()).isEqualTo(403);
    assertThat(get(path, token).statusCode()).isEqualTo(403);
  }

  @Test
  void basicVerification_isCachedBriefly_soRepeatedRequestsRunTheKdfOnceUntilTheCacheEntryEnds()
      throws Exception {
    String path = "/test/shelf/" + RECORD + "/";
    String credentials = basic("keeper", PASSWORD);
    assertThat(get(path, credentials).statusCode()).isEqualTo(200);
    double before = derivations();

    for (int i = 0; i < 5; i++) assertThat(get(path, credentials).statusCode()).isEqualTo(200);
    assertThat(derivations()).as("served from the cache").isEqualTo(before);

    assertThat(get(path, basic("keeper", PASSWORD + "x")).statusCode()).isEqualTo(401);
    assertThat(get(path, basic("keeper", PASSWORD + "x")).statusCode()).isEqualTo(401);
    assertThat(derivations()).as("failures are never cached").isEqualTo(before + 2);

    clock.advance(Access.CACHE_TTL);
    assertThat(get(path, credentials).statusCode()).isEqualTo(200);
    assertThat(derivations()).as("verified again once the entry ended").isEqualTo(before + 3);
    assertThat(get("/.toa/metrics", credentials).body())
        .contains("toa_credentials_derivations_total");
  }

  private double derivations() {
    return app.metrics().find("toa.credentials.derivations").functionCounter().count();
  }

  private String basic(String name, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((name + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private String bearer(String name) {
    return "Bearer " + identities.issue(name, Duration.ofMinutes(5)).token();
  }

  private static void assertChallenges(HttpResponse<String> response) {
    assertThat(response.headers().allValues("www-authenticate"))
        .anySatisfy(v -> assertThat(v).startsWith("Basic realm="));
    assertThat(response.headers().allValues("www-authenticate"))
        .anySatisfy(v -> assertThat(v).startsWith("Bearer realm="));
  }

  private static void expect401(HttpResponse<String> response, String message) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
    assertChallenges(response);
    assertThat(JSON.readTree(response.body()).path("detail").asString()).contains(message);
  }

  private HttpResponse<String> get(String path, String authorization) throws Exception {
    return send("GET", path, authorization, null, null);
  }

  private HttpResponse<String> send(
      String method, String path, String authorization, String contentType, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) request.header("authorization", authorization);
    if (contentType != null) request.header("content-type", contentType);
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
