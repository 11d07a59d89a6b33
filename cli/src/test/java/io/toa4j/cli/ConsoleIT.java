package io.toa4j.cli;

import static io.toa4j.cli.ConsolePage.CLOSED;
import static io.toa4j.cli.ConsolePage.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The operator console of {@code toa run} on the shop (SQLite and the embedded bus), in a real
 * browser: an operator logs in, sees a top-up's credit parked while the wallets' receiver fails,
 * replays it from its button once the receiver is fixed, and sees it handled; an identity without
 * the operator role gets no data. The first test leaves its screenshot at {@code
 * target/console.png}, or where {@code toa.console.screenshot} says ({@code docs/console.png}
 * refreshes the one the docs show).
 */
@Needs(Server.CHROMIUM)
class ConsoleIT {
  private static final String CREDIT = "tr[data-operation='billing.wallets.credit']";

  @TempDir Path temp;
  private Path shop;
  private ToaShell toa;
  private int port;
  private ConsolePage page;

  @BeforeEach
  void start() throws IOException {
    shop = ToaShell.copyOfShop(temp);
    ConsolePage.closableWallets(shop);
    toa = new ToaShell(Files.createDirectories(temp.resolve("logs")));
    identity("operator", "toa:operator");
    identity("clerk", "store");
    port = toa.serve(shop, "run", Map.of()).port();
    page = new ConsolePage(Files.createDirectories(temp.resolve("chromium")));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (page != null) page.close();
    toa.close();
  }

  @Test
  void operator_seesACreditParked_replaysItAfterTheFix_andSeesItHandled() throws IOException {
    page.logIn(port, "operator");
    page.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-parked")));

    Files.createFile(shop.resolve(CLOSED));
    ToaShell.Result topup =
        toa.run(shop, "call", "billing.topups.record", ToaShell.topup("co_console", 5000));
    assertThat(topup.exitCode()).as("%s", topup).isZero();

    WebElement parked = page.parkedCredit("co_console");
    assertThat(page.browser.findElement(By.cssSelector(CREDIT + " td:nth-child(2)")).getText())
        .as("no credit ran")
        .isEqualTo("0");
    page.screenshot();

    Files.delete(shop.resolve(CLOSED));
    page.replay(parked);

    page.wait.until(ExpectedConditions.textToBe(By.cssSelector(CREDIT + " td:nth-child(3)"), "1"));
    toa.assertWallet(shop, 5000, 1);
  }

  @Test
  void identityWithoutTheOperatorRole_getsNoData() throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    assertThat(state(client, null).statusCode()).isEqualTo(401);
    HttpResponse<String> clerk =
        state(
            client,
            "Basic "
                + Base64.getEncoder()
                    .encodeToString(("clerk:" + PASSWORD).getBytes(StandardCharsets.UTF_8)));
    assertThat(clerk.statusCode()).isEqualTo(403);
    assertThat(clerk.body()).contains("toa:operator").doesNotContain("billing.wallets");

    page.logIn(port, "clerk");

    WebElement denied =
        page.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("denied-reason")));
    assertThat(denied.getText()).contains("toa:operator", "'clerk' holds the roles [store]");
    assertThat(page.browser.findElement(By.id("console")).isDisplayed()).isFalse();
    assertThat(page.browser.findElements(By.cssSelector(".component, tr.parked, tr.entry")))
        .isEmpty();
    assertThat(page.browser.getPageSource()).doesNotContain("billing.wallets");
  }

  private HttpResponse<String> state(HttpClient client, String authorization) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/.toa/console/state"));
    if (authorization != null) request.header("authorization", authorization);
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private void identity(String name, String role) {
    ToaShell.Result created =
        toa.runWithInput(shop, PASSWORD + "\n", "identity", "create", name, "--role", role);
    assertThat(created.exitCode()).as("%s", created).isZero();
  }
}
