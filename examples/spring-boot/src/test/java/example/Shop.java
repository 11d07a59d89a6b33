package example;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.time.Duration;
import java.util.Map;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The guide's top-up, told to a running example over real HTTP: the same POST twice with one key,
 * the events settled, the wallet read. Both the embedded and the distributed test tell it.
 */
final class Shop {
  static final String CUSTOMER = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  static final String TOPUP =
      "{\"checkout\": \"co_1\", \"customer\": \"" + CUSTOMER + "\", \"amount\": 5000}";
  static final String KEY = "3f1c8a2e-6d0b-4c1f-9a57-0e2b7c9d4a11";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final RestClient client;
  private final Toa toa;

  Shop(int port, Toa toa) {
    this.client = RestClient.create("http://127.0.0.1:" + port);
    this.toa = toa;
  }

  /**
   * Sends a request with a JSON body (none when null) and header pairs; any status is an answer.
   */
  ResponseEntity<String> send(String method, String path, String body, String... headers) {
    RestClient.RequestBodySpec request = client.method(HttpMethod.valueOf(method)).uri(path);
    for (int i = 0; i < headers.length; i += 2) request.header(headers[i], headers[i + 1]);
    if (body != null) request.contentType(MediaType.APPLICATION_JSON).body(body);
    return request.retrieve().onStatus(status -> true, (req, res) -> {}).toEntity(String.class);
  }

  static JsonNode json(ResponseEntity<String> response) {
    return JSON.readTree(response.getBody());
  }

  /** The same POST twice with one key answers the same, and the wallet is credited once. */
  void sameTopupTwice_answersTheSame_andCreditsOnce() {
    ResponseEntity<String> first = send("POST", "/topups", TOPUP, "idempotency-key", KEY);
    ResponseEntity<String> again = send("POST", "/topups", TOPUP, "idempotency-key", KEY);

    assertThat(first.getStatusCode().value()).as(first.getBody()).isEqualTo(200);
    assertThat(json(first).path("checkout").asText()).isEqualTo("co_1");
    assertThat(json(first).path("amount").asLong()).isEqualTo(5000);
    assertThat(again.getStatusCode().value()).isEqualTo(200);
    assertThat(again.getBody()).isEqualTo(first.getBody());
    assertThat(toa.admin().settle(Duration.ofSeconds(60))).as("every event handled").isEmpty();
    ResponseEntity<String> wallet = send("GET", "/wallets/" + CUSTOMER, null);
    assertThat(wallet.getStatusCode().value()).as(wallet.getBody()).isEqualTo(200);
    assertThat(json(wallet).path("balance").asLong()).isEqualTo(5000);
    Map<?, ?> record =
        (Map<?, ?>)
            ((Reply.Output) toa.call("billing.wallets.observe", Request.id(CUSTOMER)))
                .value()
                .orElseThrow();
    assertThat(record.get("VERSION")).as("written once").isEqualTo(1L);
  }

  /** Actuator's health, with the toa contributor in it. */
  void health_isUp() {
    ResponseEntity<String> health = send("GET", "/actuator/health", null);

    assertThat(health.getStatusCode().value()).as(health.getBody()).isEqualTo(200);
    assertThat(json(health).path("status").asText()).isEqualTo("UP");
  }

  /**
   * Actuator's metrics, with the runtime's meters in them: the call that recorded a top-up, timed.
   */
  void metrics_showTheRuntimesMeters() {
    String customer = "0000000000000000000000000000a11e";
    String topup = TOPUP.replace("co_1", "co_metrics").replace(CUSTOMER, customer);
    ResponseEntity<String> recorded =
        send("POST", "/topups", topup, "idempotency-key", "k-metrics");
    assertThat(recorded.getStatusCode().value()).as(recorded.getBody()).isEqualTo(200);

    ResponseEntity<String> names = send("GET", "/actuator/metrics", null);
    assertThat(names.getStatusCode().value()).as(names.getBody()).isEqualTo(200);
    assertThat(json(names).path("names").valueStream().map(JsonNode::asText))
        .contains("toa.call", "toa.commit", "toa.outbox.backlog", "toa.parked");
    ResponseEntity<String> calls =
        send("GET", "/actuator/metrics/toa.call?tag=operation:billing.topups.record", null);
    assertThat(calls.getStatusCode().value()).as(calls.getBody()).isEqualTo(200);
    JsonNode count =
        json(calls)
            .path("measurements")
            .valueStream()
            .filter(measurement -> measurement.path("statistic").asText().equals("COUNT"))
            .findFirst()
            .orElseThrow();
    assertThat(count.path("value").asDouble()).as(calls.getBody()).isGreaterThanOrEqualTo(1);
  }
}
