package app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The application starts with the versions Spring Boot and toa4j's BOM give it, and answers. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "toa.state=target/toa-state")
class TalliesApplicationTest {
  @LocalServerPort int port;

  @Test
  void answersARequestAndItsRepeat() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest add = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/tallies/0123456789abcdef0123456789abcdef/adds"))
        .header("Content-Type", "application/json")
        .header("Idempotency-Key", "\"first\"")
        .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 2}"))
        .build();
    HttpResponse<String> first = http.send(add, HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> repeat = http.send(add, HttpResponse.BodyHandlers.ofString());
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(first.body()).contains("\"count\":2");
    assertThat(repeat.body()).isEqualTo(first.body());
    assertThat(repeat.headers().firstValue("idempotent-replayed")).hasValue("true");
  }
}
