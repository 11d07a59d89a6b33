package io.toa4j.cli;

import static io.toa4j.cli.ConsolePage.CLOSED;
import static io.toa4j.cli.ConsolePage.PASSWORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.OwnEngines;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The operator console on PostgreSQL and RabbitMQ, in a real browser: the shop's top-ups hosted by
 * one {@code toa run}, its wallets by another, and the console of the first showing the whole
 * context: the wallets' queue and its parked credit, which the first process never consumed, and
 * the replay that the second then handles.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL, Server.CHROMIUM})
class ConsoleDistributedIT {
  @TempDir Path temp;
  private OwnEngines engines;
  private Path shop;
  private ToaShell toa;
  private ConsolePage page;

  @BeforeEach
  void start() throws Exception {
    engines = OwnEngines.create();
    shop = ToaShell.copyOfShop(temp);
    ConsolePage.closableWallets(shop);
    toa =
        new ToaShell(
            Files.createDirectories(temp.resolve("logs")),
            Map.of(
                "TOA_STORAGE",
                "postgres",
                "TOA_STORAGE_URL",
                engines.storageUrl(),
                "TOA_BUS",
                "rabbitmq",
                "TOA_BUS_URL",
                engines.busUrl()));
    ToaShell.Result created =
        toa.runWithInput(
            shop, PASSWORD + "\n", "identity", "create", "operator", "--role", "toa:operator");
    assertThat(created.exitCode()).as("%s", created).isZero();
  }

  @AfterEach
  void stop() throws Exception {
    if (page != null) page.close();
    if (toa != null)
      toa.close(); // every process this test started, before their database and virtual host go
    if (engines != null) engines.close();
  }

  @Test
  void
      consoleOfTheTopupsProcess_showsTheWalletsCreditParked_andItsReplayIsHandledByTheWalletsProcess()
          throws Exception {
    int topups = toa.serve(shop, "topups", Map.of(), "billing.topups").port();
    toa.serve(shop, "wallets", Map.of(), "billing.wallets");
    page = new ConsolePage(Files.createDirectories(temp.resolve("chromium")));
    page.logIn(topups, "operator");
    page.wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("no-parked")));
    assertThat(page.browser.findElement(By.id("context")).getText())
        .isEqualTo("shop (distributed)");
    assertThat(
            page.browser
                .findElement(By.cssSelector(".component[data-label='billing.wallets'] h3"))
                .getText())
        .contains("hosted elsewhere");

    Files.createFile(shop.resolve(CLOSED));
    ToaShell.Result topup =
        toa.run(shop, "call", "billing.topups.record", ToaShell.topup("co_distributed", 5000));
    assertThat(topup.exitCode()).as("%s", topup).isZero();

    WebElement parked = page.parkedCredit("co_distributed");
    page.wait.until(
        ExpectedConditions.textToBe(
            By.cssSelector("tr[data-queue='billing.topups.paid..billing.wallets'] td:nth-child(3)"),
            "1"));

    Files.delete(shop.resolve(CLOSED));
    page.replay(parked);

    await()
        .atMost(ConsolePage.PATIENCE)
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(() -> toa.assertWallet(shop, 5000, 1));
  }
}
