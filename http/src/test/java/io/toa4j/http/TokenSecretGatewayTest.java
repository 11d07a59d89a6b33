package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.OwnerOnly;
import io.toa4j.tck.time.TestClock;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The token secret at a real gateway on a free port over a real SQLite context: kept in its own
 * file, never accepting a token changed in any character, and invalidating every token when it is
 * replaced.
 */
class TokenSecretGatewayTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient CLIENT = HttpClient.newHttpClient();
  static final String RECORD = "5e1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  static final String PATH = "/test/shelf/" + RECORD + "/" + Shelf.BY_ROLE;
  static final String PASSWORD = "correct horse battery staple";

  @TempDir Path directory;
  final TestClock clock = new TestClock();
  Toa app;
  Gateway gateway;
  Identities identities;
  Identities.Identity keeper;

  @BeforeEach
  void start() {
    app =
        Toa.builder()
            .directory(Shelf.context(directory))
            .options(Options.defaults().withClock(clock))
            .build();
    identities = new Identities(app.admin().records(Identities.STORE), app.state(), clock);
    keeper = identities.create("keeper", PASSWORD.toCharArray(), List.of("store"));
  }

  @AfterEach
  void stop() {
    if (gateway != null) gateway.close();
    app.close();
  }

  @Test
  void start_makesTheSecretFile0600_inAFolder0700_underToa() throws Exception {
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);

    Path file = directory.resolve(".toa/secrets/token.key");
    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(OwnerOnly.FILE);
    assertThat(Files.getPosixFilePermissions(file.getParent())).isEqualTo(OwnerOnly.FOLDER);
    assertThat(Base64.getDecoder().decode(Files.readString(file).strip())).hasSize(32);
  }

  @Test
  void aRealToken_withAnyOneCharacterChanged_is401_everyTime() throws Exception {
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);
    String token = issued();
    assertThat(get(PATH, "Bearer " + token).statusCode()).as("the token as issued").isEqualTo(200);

    List<String> answered = new ArrayList<>();
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c == '.') continue;
      // the next character of the alphabet: at the last one, a change in the unused bits only
      char other = TokensTest.ALPHABET.charAt((TokensTest.ALPHABET.indexOf(c) + 1) % 64);
      HttpResponse<String> response =
          get(PATH, "Bearer " + token.substring(0, i) + other + token.substring(i + 1));
      if (response.statusCode() != 401
          || !response
              .headers()
              .allValues("www-authenticate")
              .toString()
              .contains("invalid_token")) {
        answered.add(i + ": " + response.statusCode() + " " + response.body());
      }
    }

    assertThat(answered).as("changed tokens not refused as invalid").isEmpty();
  }

  @Test
  void
      rotation_theSecretFileDeleted_andTheGatewayRestarted_refusesEarlierTokens_andIssuesAcceptedNewOnes()
          throws Exception {
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);
    String before = issued();
    String fromTheCommandLine = identities.issue("keeper", Duration.ofDays(1)).token();
    assertThat(get(PATH, "Bearer " + before).statusCode()).isEqualTo(200);
    assertThat(get(PATH, "Bearer " + fromTheCommandLine).statusCode()).isEqualTo(200);
    gateway.close();

    Files.delete(directory.resolve(".toa/secrets/token.key"));
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);

    for (String old : List.of(before, fromTheCommandLine)) {
      HttpResponse<String> refused = get(PATH, "Bearer " + old);
      assertThat(refused.statusCode()).isEqualTo(401);
      assertThat(JSON.readTree(refused.body()).path("detail").asString())
          .isEqualTo("the bearer token's signature does not match");
    }
    assertThat(get(PATH, "Bearer " + issued()).statusCode()).isEqualTo(200);
  }

  @Test
  void start_withASecretKeptInTheStoreByEarlierVersions_retiresIt_andRefusesTheTokensItSigned()
      throws Exception {
    byte[] old = new byte[32];
    new SecureRandom().nextBytes(old);
    String id = Identities.key("secret", "tokens");
    assertThat(
            app.admin()
                .records(Identities.STORE)
                .create(
                    id,
                    JsonNodeFactory.instance
                        .objectNode()
                        .put("kind", "secret")
                        .put("key", Base64.getEncoder().encodeToString(old))
                        .toString()))
        .isTrue();
    String signedWithTheOld =
        new Tokens(old, clock)
            .issue(keeper.id(), "keeper", clock.instant().plus(Duration.ofHours(1)));

    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY);

    assertThat(app.admin().records(Identities.STORE).read(id).orElseThrow().json())
        .doesNotContain("\"key\"");
    assertThat(get(PATH, "Bearer " + signedWithTheOld).statusCode()).isEqualTo(401);
    assertThat(get(PATH, "Bearer " + issued()).statusCode()).isEqualTo(200);
  }

  /** A token from {@code POST /.toa/token} for the keeper. */
  private String issued() throws Exception {
    HttpResponse<String> response =
        send(
            "POST",
            "/.toa/token",
            "Basic "
                + Base64.getEncoder()
                    .encodeToString(("keeper:" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).path("token").asString();
  }

  private HttpResponse<String> get(String path, String authorization) throws Exception {
    return send("GET", path, authorization);
  }

  private HttpResponse<String> send(String method, String path, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) request.header("authorization", authorization);
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
