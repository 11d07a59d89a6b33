package io.toa4j.cli;

import static io.toa4j.cli.ConsolePage.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Request;
import io.toa4j.http.Gateway;
import io.toa4j.http.GatewaySettings;
import io.toa4j.http.Identities;
import io.toa4j.runtime.Toa;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console over 10,000 parked messages, in headless Chromium: the first page comes in under a
 * second and every poll carries under 50 KB, as the browser measured them (Resource Timing); the
 * filters, paging and bulk actions are the server's; a selection and a scrolled payload survive the
 * polls; Pause stops them; Log out revokes the token on the server.
 *
 * <p>The context runs in this process (the gateway on a free port, the embedded engine in a
 * temporary folder): two receivers of one event, each failing for good, park 5,000 messages each.
 */
@Needs(Server.CHROMIUM)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(
    MethodOrderer.OrderAnnotation.class) // one page, driven on: the discard, then the log-out, last
class ConsoleScaleIT {
  static final int EACH = 5_000;

  @TempDir static Path temp;
  private Toa app;
  private Gateway gateway;
  private ConsolePage page;

  @BeforeAll
  void start() throws IOException {
    Path context = Files.createDirectories(temp.resolve("context"));
    write(context, "context.toa.yaml", "name: scale\ndelivery: { retries: [] }\n");
    write(
        context,
        "components/scale.sources/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            n: { type: integer }
        operations:
          emit:
            query: true
            input: { type: object, properties: { n: { type: integer } }, required: [n] }
        """);
    write(
        context,
        "components/scale.sources/Source.java",
        "package scale.sources;\npublic class Source extends io.toa4j.api.Entry { public Long n; }\n");
    write(
        context,
        "components/scale.sources/operations/Emit.java",
        """
        package scale.sources.operations;
        public class Emit implements io.toa4j.api.Transition<Emit.Input, scale.sources.Source> {
          public record Input(long n) {}
          public Object transition(Input input, scale.sources.Source entry) {
            entry.n = input.n();
            return entry;
          }
        }
        """);
    sink(
        context,
        "sinks",
        "throw new io.toa4j.api.Failure(io.toa4j.api.Failure.Code.CONTRACT,"
            + " \"sinks refuse \" + input.n());");
    sink(context, "mirrors", "throw new IllegalStateException(\"mirrors are down\");");
    app = Toa.builder().directory(context).build();
    for (int n = 0; n < EACH; n++)
      app.call("scale.sources.emit", Request.of("%032x".formatted(n + 1), Map.of("n", n)));
    Awaitility.await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> app.admin().parked().size() == 2 * EACH);
    gateway = Gateway.start(app, new InetSocketAddress("127.0.0.1", 0), GatewaySettings.defaults());
    new Identities(app.admin().records(Identities.STORE), app.state(), app.clock())
        .create("operator", PASSWORD.toCharArray(), List.of("toa:operator"));
    page = new ConsolePage(Files.createDirectories(temp.resolve("chromium")));
    page.logIn(gateway.port(), "operator");
  }

  @AfterAll
  void stop() {
    if (page != null) page.close();
    if (gateway != null) gateway.close();
    if (app != null) app.close();
  }

  @Test
  @Order(1)
  void firstPage_underASecond_andEveryPoll_under50KB_asTheBrowserMeasuredThem() {
    page.wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("tr.parked"), 25));
    waitForPolls(2);

    List<Map<String, Object>> polls = polls();
    assertThat(polls).isNotEmpty();
    System.out.println("The console's polls over " + 2 * EACH + " parked messages: " + polls);
    assertThat(((Number) polls.get(0).get("duration")).doubleValue())
        .as("the first page's request, start to last byte, in ms: %s", polls.get(0))
        .isLessThan(1000);
    assertThat(polls)
        .allSatisfy(
            poll ->
                assertThat(((Number) poll.get("bytes")).longValue())
                    .as("a poll's body, in bytes: %s", poll)
                    .isPositive()
                    .isLessThan(50_000));
    assertThat(text("parked-count")).isEqualTo(String.valueOf(2 * EACH));
    assertThat(text("shown")).isEqualTo("1–25 of " + 2 * EACH);
  }

  @Test
  @Order(2)
  void filtersAndPages_areTheServers_andASelectionSurvivesThePolls() {
    page.wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("tr.parked"), 25));
    new Select(page.browser.findElement(By.id("f-component"))).selectByValue("scale.mirrors");
    page.wait.until(
        ExpectedConditions.textToBe(
            By.id("shown"), "1–25 of " + EACH + " matching (" + 2 * EACH + " parked)"));
    assertThat(page.browser.findElements(By.cssSelector("tr.parked")))
        .allSatisfy(row -> assertThat(row.getText()).contains("mirrors are down"));
    page.browser.findElement(By.id("next")).click();
    page.wait.until(
        ExpectedConditions.textToBe(
            By.id("shown"), "26–50 of " + EACH + " matching (" + 2 * EACH + " parked)"));

    WebElement row = page.browser.findElements(By.cssSelector("tr.parked")).get(3);
    String id = row.getDomAttribute("data-id");
    row.findElement(By.cssSelector("td")).click();
    page.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("detail-payload")));
    page.wait.until(d -> text("detail-payload").contains("\"n\""));
    String shown = text("detail-message");
    page.browser.executeScript("window.scrollTo(0, 400);");
    long scrolled = scrollY();
    waitForPolls(2);
    assertThat(selectedIds()).as("the selection, after two polls").containsExactly(id);
    assertThat(text("detail-message")).isEqualTo(shown);
    assertThat(scrollY()).as("the page's scroll, after two polls").isEqualTo(scrolled).isPositive();

    page.browser.findElement(By.id("f-clear")).click();
    page.wait.until(ExpectedConditions.textToBe(By.id("shown"), "1–25 of " + 2 * EACH));
  }

  @Test
  @Order(3)
  void pause_stopsThePolls_andResumeStartsThem() {
    page.browser.findElement(By.id("pause")).click();
    page.wait.until(ExpectedConditions.textToBe(By.id("status"), "paused"));
    int before = polls().size();

    assertThatThrownBy(
            () ->
                new WebDriverWait(page.browser, Duration.ofSeconds(5))
                    .until(d -> polls().size() > before))
        .as("no poll while paused, for two and a half polls' time")
        .isInstanceOf(TimeoutException.class);

    page.browser.findElement(By.id("pause")).click();
    waitForPolls(1);
  }

  @Test
  @Order(4)
  void discardByFilter_asksForAReasonAndSaysHowMany_thenTheRestStay() {
    new Select(page.browser.findElement(By.id("f-code"))).selectByValue("CONTRACT");
    page.wait.until(
        ExpectedConditions.textToBe(
            By.id("shown"), "1–25 of " + EACH + " matching (" + 2 * EACH + " parked)"));
    page.browser.findElement(By.id("replay-matching")).click();
    page.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-text")));
    assertThat(text("confirm-text"))
        .isEqualTo("Replay the " + EACH + " parked messages that match (code CONTRACT)?");
    page.browser.findElement(By.id("confirm-no")).click();

    page.browser.findElement(By.id("discard-matching")).click();
    page.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("reason")));
    assertThat(text("confirm-text"))
        .isEqualTo("Discard the " + EACH + " parked messages that match (code CONTRACT) for good?");
    assertThat(page.browser.findElement(By.id("confirm-yes")).isEnabled())
        .as("not without a reason")
        .isFalse();
    page.browser.findElement(By.id("reason")).sendKeys("the sinks were retired");
    page.browser.findElement(By.id("confirm-yes")).click();

    page.wait.until(ExpectedConditions.textToBe(By.id("parked-count"), String.valueOf(EACH)));
    assertThat(app.admin().parked()).allSatisfy(p -> assertThat(p.code()).isEqualTo("SYSTEM"));
    page.browser.findElement(By.id("f-clear")).click();
  }

  @Test
  @Order(5)
  void logOut_revokesTheTokenOnTheServer() throws Exception {
    String token =
        (String) page.browser.executeScript("return sessionStorage.getItem('toa-console-token');");
    assertThat(state(token).statusCode()).isEqualTo(200);

    page.browser.findElement(By.id("logout")).click();
    page.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));

    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> state(token).statusCode() == 401);
    assertThat(state(token).body()).contains("revoked");
    page.logIn(gateway.port(), "operator");
    page.wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr.parked")));
  }

  /** The console's polls of {@code state} so far: each one's duration in ms and body in bytes. */
  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> polls() {
    return (List<Map<String, Object>>)
        page.browser.executeScript(
            "return performance.getEntriesByType('resource')"
                + ".filter(e => new URL(e.name).pathname.endsWith('/console/state'))"
                + ".map(e => ({ duration: e.duration, bytes: e.encodedBodySize }));");
  }

  private void waitForPolls(int more) {
    int before = polls().size();
    page.wait.until(d -> polls().size() >= before + more);
  }

  private long scrollY() {
    return ((Number) page.browser.executeScript("return window.scrollY;")).longValue();
  }

  private List<String> selectedIds() {
    return page.browser.findElements(By.cssSelector("tr.parked.selected")).stream()
        .map(r -> r.getDomAttribute("data-id"))
        .toList();
  }

  private String text(String id) {
    return page.browser.findElement(By.id(id)).getText();
  }

  private HttpResponse<String> state(String token) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + gateway.port() + "/.toa/console/state"))
                .header("authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static void sink(Path context, String name, String failure) throws IOException {
    write(
        context,
        "components/scale." + name + "/manifest.toa.yaml",
        """
        operations:
          take:
            input: { type: object, properties: { n: { type: integer } } }
        receivers:
          scale.sources.created: take
        """);
    write(
        context,
        "components/scale." + name + "/operations/Take.java",
        """
        package scale.%s.operations;
        public class Take implements io.toa4j.api.Effect<Take.Input> {
          public record Input(Long n) {}
          public Object effect(Input input) {
            %s
          }
        }
        """
            .formatted(name, failure));
  }

  private static void write(Path context, String file, String text) throws IOException {
    Path path = context.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
