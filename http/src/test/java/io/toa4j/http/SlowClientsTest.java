package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.time.TestClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
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
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that send slowly and clients that guess passwords, against a real gateway on a free port
 * over real sockets: they are cut off or stopped, and everyone else is served as before.
 */
class SlowClientsTest {
  static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final String WALLET = "0123456789abcdef0123456789abcdef";
  static final String PASSWORD = "correct horse battery staple";
  static final Duration ORDINARY =
      Duration.ofSeconds(2); // the bound on an ordinary request's latency

  @TempDir Path directory;
  final TestClock clock = new TestClock();
  final String gate = "toa4j.test.gate." + UUID.randomUUID();
  Toa app;
  Gateway gateway;
  Identities identities;

  @BeforeEach
  void start() {
    app =
        Toa.builder()
            .directory(Wallets.context(directory, gate))
            .options(Options.defaults().withClock(clock))
            .build();
    identities = new Identities(app.admin().records(Identities.STORE), app.state(), clock);
  }

  @AfterEach
  void stop() {
    if (gateway != null) gateway.close();
    app.close();
  }

  private void serve(GatewaySettings settings) {
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), settings);
  }

  @Test
  void
      slowClients_200TricklingHeadersAnd200TricklingBodies_areClosedWhileOrdinaryRequestsKeepTheirLatency()
          throws Exception {
    GatewaySettings settings = GatewaySettings.defaults();
    serve(settings);
    assertThat(credit("/test/wallets/" + WALLET + "/credits/", 1).statusCode()).isEqualTo(200);
    List<Socket> headers = new ArrayList<>();
    List<Socket> bodies = new ArrayList<>();
    ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
    long start = System.nanoTime();
    try {
      for (int i = 0; i < 200; i++)
        headers.add(open("GET /test/wallets/" + WALLET + "/ HTTP/1.1\r\nhost: x\r\nx-slow: "));
      for (int i = 0; i < 200; i++) {
        bodies.add(
            open(
                "PUT /test/wallets/"
                    + WALLET
                    + "/credits/ HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"));
      }
      // as many bodies as Jetty has threads: were a thread held per body, nothing else would be
      // served
      // a byte every 200 ms on each: never silent long enough for the idle timeout
      AtomicInteger open = new AtomicInteger();
      trickle.scheduleAtFixedRate(
          () -> {
            int alive = 0;
            for (Socket s : headers) alive += send(s, "a") ? 1 : 0;
            for (Socket s : bodies) alive += send(s, " ") ? 1 : 0;
            open.set(alive);
          },
          0,
          200,
          TimeUnit.MILLISECONDS);

      // ordinary requests, while every slow one is held open
      for (int i = 0; i < 20; i++) {
        long before = System.nanoTime();
        HttpResponse<String> read =
            CLIENT.send(
                HttpRequest.newBuilder(uri("/test/wallets/" + WALLET + "/"))
                    .timeout(ORDINARY)
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> credited = credit("/test/wallets/" + WALLET + "/credits/", 1);
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(credited.statusCode()).as(credited.body()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(ORDINARY);
      }
      assertThat(open.get())
          .as("the slow clients were still open during the ordinary requests")
          .isGreaterThan(0);

      // each slow one is closed by the server within the header timeout (plus a sweep) or the
      // body's
      // grace (plus the rate's slack), and a generous margin for a loaded machine: 400 sockets are
      // opened, trickled and read one after another. Left alone they would stay open for good (a
      // byte every 200 ms never lets the idle timeout run out), so any bound shows the server cut
      // them.
      Duration bound = settings.headerTimeout().plusSeconds(15);
      for (Socket s : headers)
        assertThat(closedWithin(s, start, bound)).as("a trickle of headers is cut off").isEmpty();
      for (Socket s : bodies) {
        String answer = closedWithin(s, start, bound);
        assertThat(answer)
            .as("a trickle of body is answered 408")
            .startsWith("HTTP/1.1 408")
            .containsIgnoringCase("connection: close")
            .contains("TOO_SLOW");
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(bound);
      assertThat(credit("/test/wallets/" + WALLET + "/credits/", 1).statusCode()).isEqualTo(200);
      assertThat(app.call("test.wallets.observe", io.toa4j.api.Request.id(WALLET))).isNotNull();
    } finally {
      trickle.shutdownNow();
      for (Socket s : headers) s.close();
      for (Socket s : bodies) s.close();
    }
  }

  @Test
  void anonymousClient_onARouteThatNeedsARole_isRefusedWithoutItsBodyBeingAwaited()
      throws Exception {
    serve(GatewaySettings.defaults());
    long before = System.nanoTime();

    // the headers promise a body that never comes: the answer cannot wait for it
    try (Socket socket =
        open(
            "PUT /test/wallets/"
                + WALLET
                + "/staff-credits/ HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                + "content-length: 1000000\r\n\r\n")) {
      String answer = readAnswer(socket, Duration.ofSeconds(5));

      assertThat(answer).startsWith("HTTP/1.1 401").contains("store:wallets");
    }
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(ORDINARY);
  }

  @Test
  void guessing_oneName_isSlowedThen429WithRetryAfter_whileAnotherNameIsServed() throws Exception {
    serve(GatewaySettings.defaults().withGuesses(3, 100, Duration.ofMinutes(10)));
    identities.create("alice", PASSWORD.toCharArray(), List.of());
    identities.create("bob", PASSWORD.toCharArray(), List.of());
    String wallet = "/test/wallets/" + WALLET + "/";
    assertThat(get(wallet, basic("alice", PASSWORD)).statusCode())
        .as("alice's right header, proven once")
        .isEqualTo(200);

    for (int i = 1; i <= 3; i++) {
      long before = System.nanoTime();
      assertThat(get(wallet, basic("alice", "guess " + i)).statusCode()).isEqualTo(401);
      assertThat(Duration.ofNanos(System.nanoTime() - before))
          .as("the %d-th wrong password is held", i)
          .isGreaterThanOrEqualTo(Guesses.delay(i));
    }
    double derivations = derivations();
    HttpResponse<String> stopped = get(wallet, basic("alice", "guess 4"));
    HttpResponse<String> rightButNew =
        get(wallet, basic("alice", PASSWORD + " ")); // not the proven header

    assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(429);
    assertThat(stopped.body()).contains("TOO_MANY_GUESSES").doesNotContain("alice");
    assertThat(Long.parseLong(stopped.headers().firstValue("retry-after").orElseThrow()))
        .isBetween(1L, 600L);
    assertThat(rightButNew.statusCode()).isEqualTo(429);
    assertThat(derivations()).as("no derivation runs for a name that waits").isEqualTo(derivations);
    assertThat(get(wallet, basic("alice", PASSWORD)).statusCode())
        .as("a proven header is no guess")
        .isEqualTo(200);
    assertThat(get(wallet, basic("bob", PASSWORD)).statusCode())
        .as("another name from the same address")
        .isEqualTo(200);

    clock.advance(Duration.ofMinutes(10));
    assertThat(get(wallet, basic("alice", PASSWORD + " ")).statusCode())
        .as("the window ended: checked again, and wrong")
        .isEqualTo(401);
  }

  @Test
  void guessing_fromOneAddress_is429ForEveryName_whileAnotherAddressIsServed() throws Exception {
    serve(GatewaySettings.defaults().withGuesses(100, 4, Duration.ofMinutes(10)));
    identities.create("carol", PASSWORD.toCharArray(), List.of());
    InetAddress guesser = InetAddress.getByName("127.0.0.2");
    InetAddress other = InetAddress.getByName("127.0.0.3");
    String wallet =
        "GET /test/wallets/"
            + WALLET
            + "/ HTTP/1.1\r\nhost: x\r\nconnection: close\r\nauthorization: ";

    for (int i = 1; i <= 4; i++)
      assertThat(
              RawHttp.from(
                      guesser, gateway.port(), wallet + basic("name" + i, "guess") + "\r\n\r\n")
                  .status())
          .isEqualTo(401);
    double derivations = derivations();
    RawHttp.Answer stopped =
        RawHttp.from(guesser, gateway.port(), wallet + basic("carol", PASSWORD) + "\r\n\r\n");
    RawHttp.Answer served =
        RawHttp.from(other, gateway.port(), wallet + basic("carol", PASSWORD) + "\r\n\r\n");

    assertThat(stopped.status()).as(stopped.text()).isEqualTo(429);
    assertThat(stopped.header("retry-after")).isPresent();
    assertThat(served.status()).as(served.text()).isEqualTo(200);
    assertThat(derivations())
        .as("one derivation, for the other address")
        .isEqualTo(derivations + 1);
  }

  @Test
  void guesses_ipv6AddressesOfOneSlash64_shareOneCount() throws Exception {
    String a = Guesses.address(new InetSocketAddress(InetAddress.getByName("2001:db8:1:2::1"), 1));
    String b =
        Guesses.address(new InetSocketAddress(InetAddress.getByName("2001:db8:1:2:ffff::9"), 2));
    String c = Guesses.address(new InetSocketAddress(InetAddress.getByName("2001:db8:1:3::1"), 1));

    assertThat(a).isEqualTo(b).isNotEqualTo(c);
    assertThat(Guesses.address(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 1)))
        .isEqualTo("127.0.0.2");
  }

  private double derivations() {
    return app.metrics().find("toa.credentials.derivations").functionCounter().count();
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + gateway.port() + path);
  }

  private HttpResponse<String> credit(String path, long amount) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(uri(path))
            .timeout(ORDINARY)
            .header("content-type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"amount\": " + amount + "}"))
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path, String authorization) throws Exception {
    return CLIENT.send(
        HttpRequest.newBuilder(uri(path)).header("authorization", authorization).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String name, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((name + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private Socket open(String start) throws IOException {
    Socket socket = new Socket("127.0.0.1", gateway.port());
    socket.getOutputStream().write(start.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
    return socket;
  }

  /** Sends the text; whether the socket still took it. */
  private static boolean send(Socket socket, String text) {
    try {
      OutputStream out = socket.getOutputStream();
      out.write(text.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Reads until the server closes the socket, which must happen before {@code bound} has passed
   * since {@code start}; what was read (an answer, or nothing).
   */
  private static String closedWithin(Socket socket, long start, Duration bound) throws IOException {
    long left = bound.toMillis() - Duration.ofNanos(System.nanoTime() - start).toMillis();
    assertThat(left).as("time left to see the socket closed").isPositive();
    return readAnswer(socket, Duration.ofMillis(left));
  }

  /** Everything the server sends until it closes the connection, within the time given. */
  private static String readAnswer(Socket socket, Duration within) throws IOException {
    socket.setSoTimeout((int) Math.max(1, within.toMillis()));
    StringBuilder read = new StringBuilder();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n; (n = in.read(buffer)) >= 0; )
        read.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
    } catch (SocketTimeoutException e) {
      throw new AssertionError(
          "the server did not close the connection within " + within + "; read: " + read, e);
    } catch (SocketException e) {
      // reset by the server: closed too
    }
    return read.toString();
  }
}
