package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
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
import net.jqwik.api.statistics.Statistics;

/**
 * Requests built byte by byte and sent over a bare socket, where an HTTP client would refuse or
 * tidy them: methods, request lines, versions, headers, bodies, encodings, percent-escapes, nesting
 * and sizes. Whatever arrives, the answer is never a 5xx (but 505 to a request line of another
 * version than HTTP/1.x); every refusal (but to HEAD) has a problem body with type, title, status,
 * detail and code, and no internals; and a refused request leaves the wallet at its version.
 */
class GatewayRawFuzzTest {
  static final String WALLET = "0123456789abcdef0123456789abcdef";
  static final int MAX_BODY = 4096;
  static Path directory;
  static Toa app;
  static Gateway gateway;

  @BeforeContainer
  static void start() throws Exception {
    directory = Files.createTempDirectory("toa-raw-fuzz");
    app = Toa.builder().directory(Wallets.context(directory, "toa4j.test.gate.unused")).build();
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), MAX_BODY);
  }

  @AfterContainer
  static void stop() {
    gateway.close();
    app.close();
  }

  /** One request's parts; {@link #bytes()} puts them on the wire. */
  record Attempt(
      String method,
      String target,
      String version,
      List<String> headers,
      Framing framing,
      byte[] body) {
    byte[] bytes() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      StringBuilder head =
          new StringBuilder(method)
              .append(' ')
              .append(target)
              .append(version.isEmpty() ? "" : " " + version)
              .append("\r\n");
      headers.forEach(h -> head.append(h).append("\r\n"));
      switch (framing) {
        case LENGTH -> head.append("content-length: ").append(body.length).append("\r\n");
        case SHORT_LENGTH ->
            head.append("content-length: ").append(Math.max(0, body.length - 3)).append("\r\n");
        case LONG_LENGTH -> head.append("content-length: ").append(body.length + 7).append("\r\n");
        case HUGE_LENGTH -> head.append("content-length: 99999999999999999999\r\n");
        case NEGATIVE_LENGTH -> head.append("content-length: -1\r\n");
        case TWO_LENGTHS ->
            head.append("content-length: ")
                .append(body.length)
                .append("\r\ncontent-length: ")
                .append(body.length + 1)
                .append("\r\n");
        case CHUNKED, BAD_CHUNKS -> head.append("transfer-encoding: chunked\r\n");
        case NONE -> {}
      }
      head.append("connection: close\r\n\r\n");
      out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (framing == Framing.CHUNKED) {
        for (int i = 0; i < body.length; i += 100) {
          int n = Math.min(100, body.length - i);
          out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
          out.write(body, i, n);
          out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      } else if (framing == Framing.BAD_CHUNKS) {
        out.writeBytes(("zz\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(body);
      } else {
        out.writeBytes(body);
      }
      return out.toByteArray();
    }

    @Override
    public String toString() {
      String wire = new String(bytes(), StandardCharsets.ISO_8859_1);
      return wire.length() > 600
          ? wire.substring(0, 600) + "... (" + wire.length() + " bytes)"
          : wire;
    }
  }

  enum Framing {
    LENGTH,
    SHORT_LENGTH,
    LONG_LENGTH,
    HUGE_LENGTH,
    NEGATIVE_LENGTH,
    TWO_LENGTHS,
    CHUNKED,
    BAD_CHUNKS,
    NONE
  }

  @Property(tries = 1500)
  void anyRequest_isNever5xx_refusalsAreProblems_andChangeNothing(
      @ForAll("attempts") Attempt attempt) {
    long before = version();

    RawHttp.Answer answer =
        RawHttp.send(gateway.port(), attempt.bytes(), attempt.method().equals("HEAD"));

    // 505 is a refusal too, of a request line Jetty reads as another version (an empty target
    // leaves "HTTP/0.9"), and nothing else may be 5xx
    if (answer.status() != 505)
      assertThat(answer.status()).as("%s\n-> %s", attempt, answer.text()).isBetween(200, 499);
    Statistics.label("status")
        .collect(answer.status() == 505 ? "505" : answer.status() / 100 + "xx");
    Statistics.label("status")
        .coverage(
            checker -> {
              // about 1 % of the draws are valid requests (19 of 1,500 on average): at least 5 says
              // the
              // generator still makes them, without failing on an unlucky draw
              checker.check("2xx").count(n -> n >= 5);
              checker.check("4xx").percentage(p -> p > 50);
            });
    if (answer.status() >= 400) {
      assertThat(version()).as("a refused request changes nothing: %s", attempt).isEqualTo(before);
      if (!attempt.method().equals("HEAD")) {
        try {
          ProblemBodies.assertProblem(answer.status(), answer);
        } catch (AssertionError e) {
          throw new AssertionError(attempt + "\n-> " + e.getMessage(), e);
        }
      }
    }
  }

  static long version() {
    Map<?, ?> wallet =
        (Map<?, ?>)
            ((Reply.Output) app.call("test.wallets.observe", Request.id(WALLET)))
                .value()
                .orElseThrow();
    return ((Number) wallet.get("VERSION")).longValue();
  }

  @Provide
  Arbitrary<Attempt> attempts() {
    Arbitrary<String> methods =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(6, Arbitraries.of("PUT", "POST")),
            net.jqwik.api.Tuple.of(3, Arbitraries.of("GET", "HEAD", "PATCH", "DELETE", "OPTIONS")),
            net.jqwik.api.Tuple.of(
                1,
                Arbitraries.of(
                    "put",
                    "FETCH",
                    "TRACE",
                    "CONNECT",
                    "G\tET",
                    "",
                    "PUT PUT",
                    "P\u00dcT",
                    "X".repeat(300))));
    Arbitrary<Framing> framings =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(8, Arbitraries.just(Framing.LENGTH)),
            net.jqwik.api.Tuple.of(4, Arbitraries.of(Framing.class)));
    return Combinators.combine(methods, targets(), versions(), headers(), framings, bodies())
        .as(Attempt::new);
  }

  private static Arbitrary<String> targets() {
    String wallet = "/test/wallets/" + WALLET;
    Arbitrary<String> paths =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(6, Arbitraries.just(wallet + "/credits/")),
            net.jqwik.api.Tuple.of(
                6,
                Arbitraries.of(
                    wallet + "/credits/",
                    wallet + "/credits/",
                    wallet + "/grants/",
                    wallet + "/name/",
                    wallet + "/",
                    "/test/wallets/relays/",
                    "/.toa/health",
                    "/.toa/metrics",
                    "/.toa/token",
                    "*",
                    "http://127.0.0.1" + wallet + "/credits/",
                    wallet + "/credits",
                    "/test/wallets/%zz/credits/",
                    "/test/wallets/%ff/",
                    "/test/wallets/%c0%af/",
                    "/test/%2e%2e/wallets/",
                    "/test/wallets/%2F/",
                    "//test//wallets/",
                    wallet + "/credits/../credits/",
                    "/test/wallets/" + WALLET.toUpperCase() + "/credits/",
                    "no-slash",
                    "")),
            net.jqwik.api.Tuple.of(
                2,
                Arbitraries.strings()
                    .withChars("/abc%:.-?#@!$&'()*+,;=~ \u00e9")
                    .ofMaxLength(40)
                    .map(s -> "/" + s)),
            net.jqwik.api.Tuple.of(
                1, Arbitraries.integers().between(1, 6000).map(n -> "/" + "a".repeat(n) + "/")));
    Arbitrary<String> queries =
        Arbitraries.oneOf(
            Arbitraries.just(""),
            Arbitraries.of(
                "?version=1",
                "?version=2",
                "?%zz",
                "?a=%ff",
                "?a=%c0%af",
                "?version=%31",
                "?version=%",
                "?version=%2",
                "?limit=abc",
                "?=",
                "?&&",
                "?version=1&version=2",
                "?colour=red",
                "?version=+1",
                "?version=%ed%a0%80",
                "?omit=1#frag"),
            Arbitraries.strings()
                .withChars("%0123456789abcdefgz=&+;")
                .ofMaxLength(20)
                .map(s -> "?" + s));
    return Combinators.combine(paths, queries).as(String::concat);
  }

  private static Arbitrary<String> versions() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(8, Arbitraries.just("HTTP/1.1")),
        net.jqwik.api.Tuple.of(
            2,
            Arbitraries.of(
                "HTTP/1.0",
                "HTTP/2.0",
                "HTTP/1.2",
                "HTTP/3",
                "http/1.1",
                "",
                "HTTX/1.1",
                "HTTP/1.1 extra",
                "HTTP/01.1")));
  }

  private static Arbitrary<List<String>> headers() {
    Arbitrary<String> host =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(8, Arbitraries.just("host: 127.0.0.1")),
            net.jqwik.api.Tuple.of(
                1,
                Arbitraries.of(
                    "",
                    "host:",
                    "host: bad host!",
                    "host: a\r\nhost: b",
                    "host: [::1",
                    "host: x:99999")));
    Arbitrary<String> contentType =
        Arbitraries.of(
            "content-type: application/json",
            "content-type: application/json",
            "content-type: application/json",
            "content-type: application/json",
            "content-type: application/yaml",
            "content-type: application/json; charset=utf-8",
            "content-type: application/json; charset=utf-16",
            "content-type: text/plain",
            "content-type: application/json; charset",
            "content-type: ;;;",
            "");
    Arbitrary<String> accept =
        Arbitraries.of(
            "",
            "",
            "accept: application/json",
            "accept: application/yaml",
            "accept: text/html",
            "accept: */*;q=0",
            "accept: application/yaml;q=0.5, application/json",
            "accept: ;",
            "accept: ,",
            "accept: ;;, ;");
    Arbitrary<String> key =
        Arbitraries.oneOf(
            Arbitraries.of(
                "",
                "",
                "idempotency-key: \"unterminated",
                "idempotency-key: a b",
                "idempotency-key: " + "k".repeat(300)),
            Arbitraries.strings()
                .withChars("0123456789abcdef")
                .ofLength(16)
                .map(s -> "idempotency-key: " + s));
    Arbitrary<String> extra =
        Arbitraries.of(
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "x-a: b",
            "x-folded: a\r\n b",
            "no colon",
            "x-ctl: a\u0001b",
            "x-bytes: \u00ff\u00fe",
            "expect: 100-continue",
            "if-match: \"1\"",
            "if-match: garbage",
            "authorization: Basic !!!",
            "authorization: Bearer x.y",
            "x-long: " + "v".repeat(9000),
            " leading: space",
            "transfer-encoding: gzip",
            "content-encoding: gzip");
    return Combinators.combine(host, contentType, accept, key, extra, extra)
        .as(
            (h, t, a, k, e1, e2) -> {
              List<String> headers = new ArrayList<>();
              for (String header : List.of(h, t, a, k, e1, e2))
                if (!header.isEmpty()) headers.add(header);
              return headers;
            });
  }

  private static Arbitrary<byte[]> bodies() {
    Arbitrary<String> valid =
        Arbitraries.integers().between(1, 9).map(n -> "{\"amount\": " + n + "}");
    Arbitrary<String> texts =
        Arbitraries.oneOf(
            valid,
            valid.map(v -> v + " trailing"),
            valid.map(v -> v + "]"),
            valid.map(v -> v + v),
            valid.map(v -> v + "\n---\n"),
            Arbitraries.of(
                "amount: 1\n---\namount: 2\n",
                "amount: 1\n",
                "amount: 0\n",
                "{\"amount\": 99999999999999999999}",
                "{\"amount\": 1, \"colour\": 2}",
                "{\"amount\": \"1\"}",
                "{\"amount\": 1.5}",
                "{\"amount\": null}",
                "{\"name\": \"\\ud800\"}",
                "{\"name\": \"n\"}",
                "{\"amount\": 1, \"amount\": 2}",
                "{\"wallet\": \"" + WALLET + "\", \"amount\": 1}",
                "",
                "null",
                "[]",
                "amount: &a [*a]",
                "!!binary AAAA",
                "amount: !!float 1",
                "{",
                "\"\\u0000\""),
            Arbitraries.integers()
                .between(1, 3000)
                .map(n -> "{\"amount\": " + "[".repeat(n) + "]".repeat(n) + "}"),
            Arbitraries.integers()
                .between(1, 300)
                .map(n -> "{\"a\":".repeat(n) + "1" + "}".repeat(n)),
            Arbitraries.integers()
                .between(4000, 30_000)
                .map(n -> "{\"amount\": 1, \"pad\": \"" + "x".repeat(n) + "\"}"),
            Arbitraries.strings().ofMaxLength(100));
    Arbitrary<byte[]> utf8 = texts.map(t -> t.getBytes(StandardCharsets.UTF_8));
    Arbitrary<byte[]> broken =
        Combinators.combine(
                valid,
                Arbitraries.of("c0af", "e080af", "eda080", "ff", "f8", "80", "c3", "f4908080"))
            .as(
                (v, hex) -> {
                  ByteArrayOutputStream out = new ByteArrayOutputStream();
                  out.writeBytes(v.substring(0, v.length() - 1).getBytes(StandardCharsets.UTF_8));
                  out.writeBytes(", \"x\": \"".getBytes(StandardCharsets.UTF_8));
                  out.writeBytes(HexFormat.of().parseHex(hex));
                  out.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
                  return out.toByteArray();
                });
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(8, utf8), net.jqwik.api.Tuple.of(2, broken));
  }
}
