package io.toa4j.http;

import static io.toa4j.http.ProblemBodies.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Options;
import io.toa4j.runtime.RetryPolicy;
import io.toa4j.runtime.Toa;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A transition declared {@code concurrency: retry} whose record changes under every attempt, on a
 * real gateway over a real SQLite context: each run of {@code bump} writes its own record through
 * another call ({@code assign}), which commits first, so bump's compare-and-swap is lost every
 * time.
 */
class ContentionGatewayTest {
  static final HttpClient CLIENT =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  static final String COUNTER = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  static Path context(Path directory) {
    Notes.write(directory, "context.toa.yaml", "name: test\n");
    Notes.write(
        directory,
        "components/test.counters/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            count: { type: integer }
            others: { type: integer }
        operations:
          bump:
            concurrency: retry
            query: true
        exposition:
          auth:anonymous: true
          auth:anyone: true
          io:output: [id, count, others, VERSION]
          /:id:
            GET: observe
          /:id/bumps:
            PUT: bump
        """);
    Notes.write(
        directory,
        "components/test.counters/Counter.java",
        """
        package test.counters;
        public class Counter extends io.toa4j.api.Entry { public long count; public long others; }
        """);
    Notes.write(
        directory,
        "components/test.counters/operations/Bump.java",
        """
        package test.counters.operations;
        import io.toa4j.api.*;
        import java.util.Map;
        import test.counters.Counter;
        public class Bump implements Transition<Void, Counter> {
          public Object transition(Void input, Counter entry, Context context) {
            // another writer moves the record after this attempt read it
            context.remote("test.counters").call("assign", Request.of(entry.id(), Map.of("others", entry.others + 1)));
            entry.count++;
            return entry;
          }
        }
        """);
    return directory;
  }

  @Test
  void
      put_whoseRetriedTransitionLosesEveryCompareAndSwap_is503Contention_withRetryAfter_andWritesNothing()
          throws Exception {
    Options options =
        Options.defaults()
            .withRetry(new RetryPolicy(3, Duration.ofMillis(1), 1, Duration.ofMillis(1), 0));
    try (Toa app = Toa.builder().directory(context(directory)).options(options).build();
        Gateway gateway =
            Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), Gateway.DEFAULT_MAX_BODY)) {
      HttpResponse<String> put = send(gateway, "PUT", "/test/counters/" + COUNTER + "/bumps/");

      assertThat(put.statusCode()).as(put.body()).isEqualTo(503);
      assertThat(put.headers().firstValue("retry-after")).contains("1");
      JsonNode problem =
          assertProblem(
              503,
              put.headers().firstValue("content-type"),
              put.body().getBytes(StandardCharsets.UTF_8));
      assertThat(problem.path("code").asString()).isEqualTo("CONTENTION");
      assertThat(problem.path("detail").asString())
          .isEqualTo(
              "test.counters.bump on record "
                  + COUNTER
                  + " lost its write to concurrent ones 3 times in a row, so nothing was written;"
                  + " repeat the call later");
      HttpResponse<String> get = send(gateway, "GET", "/test/counters/" + COUNTER + "/");
      JsonNode counter = ProblemBodies.JSON.readTree(get.body());
      assertThat(counter.path("others").asLong())
          .as(get.body())
          .isEqualTo(3); // each attempt's other writer committed
      assertThat(counter.path("count").asLong()).as(get.body()).isZero(); // no attempt of bump did
      assertThat(counter.path("VERSION").asLong()).as(get.body()).isEqualTo(3);
    }
  }

  static HttpResponse<String> send(Gateway gateway, String method, String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
