package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console of a {@code toa run} in headless Chromium, as the console tests drive it: Debian's
 * browser through the chromedriver beside it (so Selenium never looks for either on the network),
 * with a profile of its own and nothing running in the background; and the shop's wallets' receiver
 * made to fail on demand.
 */
final class ConsolePage implements AutoCloseable {
  static final String PASSWORD = "operator-password";
  static final Duration PATIENCE = Duration.ofSeconds(90);

  /** What the wallets' receiver checks: while this file is in the shop's folder, it fails. */
  static final String CLOSED = "wallets-closed";

  final ChromeDriver browser;
  final WebDriverWait wait;

  ConsolePage(Path profile) {
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(Server.chromedriver().toFile())
            .usingAnyFreePort()
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(Server.chromium().toFile());
    options.addArguments(
        List.of(
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--user-data-dir=" + profile));
    browser = new ChromeDriver(service, options);
    browser.manage().window().setSize(new Dimension(1360, 1900));
    wait = new WebDriverWait(browser, PATIENCE);
  }

  /**
   * Makes the wallets' receiver of a copy of the shop fail while {@link #CLOSED} is in the folder
   * its process runs in, with a failure no retry can mend (CONTRACT), so the message is parked at
   * once.
   */
  static void closableWallets(Path shop) throws IOException {
    Path receiver = shop.resolve("components/billing.wallets/receivers/BillingTopupsPaid.java");
    String code = Files.readString(receiver);
    String request = "  public Request request(Topup topup) {\n";
    assertThat(code).contains(request);
    Files.writeString(
        receiver,
        code.replace(
            request,
            request
                + "    if (java.nio.file.Files.exists(java.nio.file.Path.of(\""
                + CLOSED
                + "\"))) {\n"
                + "      throw new io.toa4j.api.Failure(io.toa4j.api.Failure.Code.CONTRACT, \"wallets are closed for maintenance\");\n"
                + "    }\n"));
  }

  /** Opens the console at the port and logs in with the name and {@link #PASSWORD}. */
  void logIn(int port, String name) {
    browser.get("http://127.0.0.1:" + port + "/.toa/console/");
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("login-form")));
    browser.findElement(By.id("name")).sendKeys(name);
    browser.findElement(By.id("password")).sendKeys(PASSWORD);
    browser.findElement(By.id("login-button")).click();
  }

  /**
   * Waits for the one parked message of the closed wallets, checks what its row says, and opens it
   * to check its payload.
   */
  WebElement parkedCredit(String checkout) {
    WebElement parked =
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr.parked")));
    assertThat(parked.getText())
        .contains(
            "billing.topups.paid..billing.wallets",
            "billing.wallets.credit",
            "CONTRACT",
            "wallets are closed for maintenance");
    assertThat(browser.findElements(By.cssSelector("tr.parked"))).hasSize(1);
    parked.findElement(By.cssSelector("td")).click();
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.id("detail-payload"), checkout));
    return parked;
  }

  /**
   * Replays the parked message of the row from its button, confirms, and waits until nothing is
   * parked.
   */
  void replay(WebElement parked) {
    parked.findElement(By.cssSelector("button.replay")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-text")));
    assertThat(browser.findElement(By.id("confirm-text")).getText()).contains("Replay the message");
    browser.findElement(By.id("confirm-yes")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-parked")));
  }

  /**
   * What the page shows now, at {@code toa.console.screenshot} (by default {@code
   * target/console.png}).
   */
  void screenshot() throws IOException {
    Path target = Path.of(System.getProperty("toa.console.screenshot", "target/console.png"));
    Files.createDirectories(target.toAbsolutePath().getParent());
    Files.write(target, browser.getScreenshotAs(OutputType.BYTES));
  }

  @Override
  public void close() {
    browser.quit();
  }
}
