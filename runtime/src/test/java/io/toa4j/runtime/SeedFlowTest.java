package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Message;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guide's top-up flow on the shop, on real SQLite files: a checkout recorded twice is one fact,
 * announced once; the announcement delivered twice is one credit.
 */
class SeedFlowTest {
  static final Duration SETTLE = Duration.ofSeconds(30);
  static final String TOPUP = "4af147e8801b824e7bd03b000e1d4b64";
  static final String CUSTOMER = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  @TempDir Path directory;

  private static Request record() {
    return Request.of(
        TOPUP, Map.of("checkout", "co_1", "customer", CUSTOMER, "amount", 5000, "currency", "USD"));
  }

  private static Map<String, Object> wallet(Toa shop) {
    return Shop.output(shop.call("billing.wallets.observe", Request.id(CUSTOMER)));
  }

  @Test
  void sameCheckoutRecordedTwice_creditsTheWalletOnce() {
    try (Toa shop = Toa.builder().directory(Shop.copyTo(directory)).build()) {
      shop.call("billing.topups.record", record());
      shop.call("billing.topups.record", record());

      assertThat(shop.admin().settle(SETTLE)).isEmpty();
      assertThat(wallet(shop)).containsEntry("balance", 5000L).containsEntry("VERSION", 1L);
    }
  }

  @Test
  void paidDeliveredTwice_creditsTheWalletOnce() throws Exception {
    try (Toa shop = Toa.builder().directory(Shop.copyTo(directory)).build()) {
      shop.call("billing.topups.record", record());
      assertThat(shop.admin().settle(SETTLE)).isEmpty();

      try (Bus second = bus()) {
        second.publish(paidAgain());
      }

      assertThat(shop.admin().settle(SETTLE)).isEmpty();
      assertThat(wallet(shop)).containsEntry("balance", 5000L).containsEntry("VERSION", 1L);
      assertThat(shop.metrics().find("toa.inbox.answers").counter().count()).isEqualTo(1);
    }
  }

  @Test
  void twoCreditsMadeOnPurpose_areTwoCredits() {
    try (Toa shop = Toa.builder().directory(Shop.copyTo(directory)).build()) {
      Request credit = Request.of(CUSTOMER, Map.of("amount", 5000, "type", "topup", "ref", "co_2"));
      shop.call("billing.wallets.credit", credit);
      shop.call("billing.wallets.credit", credit);

      assertThat(wallet(shop)).containsEntry("balance", 10000L).containsEntry("VERSION", 2L);
    }
  }

  /** The paid event of the only top-up, as its outbox entry renders it. */
  private Message paidAgain() throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:sqlite:" + directory.resolve(".toa/storage/billing.topups.db"));
        ResultSet r = c.createStatement().executeQuery("SELECT id, change FROM outbox")) {
      assertThat(r.next()).isTrue();
      var change = Binding.VALUES.readTree(r.getString(2));
      String label = "billing.topups.paid";
      return new Message(
          Identities.derive(r.getString(1), label),
          label,
          Binding.json(change.get("state")),
          Map.of("version", "1"));
    }
  }

  private Bus bus() {
    for (BusProvider p : ServiceLoader.load(BusProvider.class)) {
      if (p.name().equals("embedded"))
        return p.open(new BusSettings(directory.resolve(".toa"), Map.of(), Clock.systemUTC()));
    }
    throw new AssertionError("no embedded bus");
  }
}
