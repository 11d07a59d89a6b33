package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.idempotency.IdempotencyKey;
import io.toa4j.runtime.Toa;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Arbitrary Idempotency-Key fields on a real gateway: a malformed one is a 400 that credits
 * nothing, a well-formed new one credits once, a well-formed repeat is replayed; none is a 5xx.
 */
class IdempotencyKeyFuzzTest {
  static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final String WALLET = "0123456789abcdef0123456789abcdef";
  static Path directory;
  static Toa app;
  static Gateway gateway;
  static final Set<String> used = new HashSet<>();
  static long credited;

  @BeforeContainer
  static void start() throws Exception {
    directory = Files.createTempDirectory("toa-keys-fuzz");
    app = Toa.builder().directory(Wallets.context(directory, "toa4j.test.gate.unused")).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), 4096);
  }

  @AfterContainer
  static void stop() {
    gateway.close();
    app.close();
  }

  @Property(tries = 400)
  void anyKeyField_is200Or400_andCreditsOnlyANewWellFormedKey(@ForAll("fields") String field)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + gateway.port() + "/test/wallets/" + WALLET + "/credits/"))
            .PUT(HttpRequest.BodyPublishers.ofString("{\"amount\": 1}"))
            .header("content-type", "application/json")
            .header("Idempotency-Key", field)
            .build();

    HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).as("[%s] -> %s", field, response.body()).isIn(200, 400);
    Statistics.collect(
        response.statusCode(), response.headers().firstValue("idempotent-replayed").isPresent());
    Statistics.coverage(
        checker -> {
          checker.check(200, false).count(n -> n > 20);
          checker.check(200, true).count(n -> n > 0);
          checker.check(400, false).count(n -> n > 20);
        });
    if (response.statusCode() == 200) {
      String key = IdempotencyKey.of(List.of(field)).orElseThrow().value();
      boolean repeat = !used.add(key);
      assertThat(response.headers().firstValue("idempotent-replayed").isPresent())
          .as("[%s] replayed", field)
          .isEqualTo(repeat);
      if (!repeat) credited++;
    } else {
      assertThat(response.body()).contains("IDEMPOTENCY_KEY");
    }
    Map<?, ?> wallet =
        (Map<?, ?>)
            ((Reply.Output) app.call("test.wallets.observe", Request.id(WALLET)))
                .value()
                .orElseThrow();
    Object balance = wallet.get("balance");
    assertThat(balance == null ? 0 : ((Number) balance).longValue()).isEqualTo(credited);
  }

  @Provide
  Arbitrary<String> fields() {
    Arbitrary<String> printable = Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(300);
    Arbitrary<String> keyish =
        Arbitraries.strings()
            .withCharRange('a', 'f')
            .withChars('-', '"', '\\', ' ', ';', '=')
            .ofMinLength(0)
            .ofMaxLength(12);
    return Arbitraries.oneOf(
        printable,
        keyish,
        keyish.map(s -> "\"" + s + "\""),
        Arbitraries.of(
            "a",
            "\"a\"",
            "\"a\\\"b\"",
            "a\\\"b",
            "\"\\\\\"",
            "\"\"",
            "\"",
            "\"a\" ",
            "\"a\";x=1",
            "k".repeat(255),
            "k".repeat(256)));
  }
}
