package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Message;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transactional inbox on the embedded engine, where a test reaches into the SQLite files: its
 * window by a test clock, its entries dropped in the background, late redeliveries of events made
 * by marking outbox entries unpublished, and a delivery copied onto a second bus. The rest of
 * {@code once} is the engine kit's {@code OnceContract}, on every pair of engines.
 */
class OnceTest {
  static final Duration SETTLE = Duration.ofSeconds(30);
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";
  static final String FEED = "fedcba9876543210fedcba9876543210";

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  private Toa ledger(String once) {
    return Toa.builder()
        .directory(Contexts.ledger(directory, once))
        .options(Options.defaults().withClock(clock))
        .build();
  }

  private static Request add(long amount, String mode) {
    return Request.of(ACCOUNT, Map.of("amount", amount, "mode", mode));
  }

  private static Map<String, Object> account(Toa app) {
    return Shop.output(app.call("test.ledger.observe", Request.id(ACCOUNT)));
  }

  private static double counted(Toa app, String name, String... tags) {
    return app.metrics().find(name).tags(tags).counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  @Test
  void
      retention_repeatInsideTheWindowIsAnswered_afterItIsRefusedForTheContextsRememberWindow_thenRunsAgain() {
    try (Toa app = ledger("600")) {
      app.call("test.ledger.add", add(10, "ok"), "call-1");
      clock.advance(Duration.ofSeconds(599));
      app.call("test.ledger.add", add(10, "ok"), "call-1");
      assertThat(account(app)).containsEntry("balance", 10L);

      clock.advance(Duration.ofSeconds(2));
      assertThatThrownBy(() -> app.call("test.ledger.add", add(10, "ok"), "call-1"))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ALREADY_ANSWERED));

      clock.advance(Duration.ofDays(30));
      app.call("test.ledger.add", add(10, "ok"), "call-1");

      assertThat(account(app)).containsEntry("balance", 20L).containsEntry("VERSION", 2L);
    }
  }

  @Test
  void expiredAnswers_areDroppedInTheBackground_andForgottenCallsRemoved_soTheInboxStaysBounded()
      throws Exception {
    try (Toa app = ledger("600")) {
      for (int i = 0; i < 3000; i++) app.call("test.ledger.add", add(1, "ok"), "call-" + i);
      assertThat(inboxRows()).isEqualTo(3000);

      clock.advance(Duration.ofSeconds(601));
      await().atMost(Duration.ofSeconds(30)).until(() -> inboxRows("reply IS NOT NULL") == 0);
      assertThat(inboxRows()).as("each call still known to be answered").isEqualTo(3000);

      clock.advance(Duration.ofDays(30));
      await().atMost(Duration.ofSeconds(30)).until(() -> inboxRows() == 0);
      assertThat(account(app)).containsEntry("balance", 3000L);
    }
  }

  @Test
  void lateRedeliveryOfAnEvent_toAOnceReceiver_isHandledBefore_notRunAgainNorParked()
      throws Exception {
    Path shop = Shop.copyTo(directory.resolve("shop"));
    String customer = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
    try (Toa app =
        Toa.builder().directory(shop).options(Options.defaults().withClock(clock)).build()) {
      app.call(
          "billing.topups.record",
          Request.of(
              FEED,
              Map.of("checkout", "co_1", "customer", customer, "amount", 5000, "currency", "USD")));
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      clock.advance(Duration.ofHours(2));

      publishAgain(shop.resolve(".toa/storage/billing.topups.db"));
      await().atMost(SETTLE).until(() -> counted(app, "toa.messages", "outcome", "delivered") >= 2);
      assertThat(app.admin().settle(SETTLE)).isEmpty();

      assertThat(Shop.output(app.call("billing.wallets.observe", Request.id(customer))))
          .containsEntry("balance", 5000L)
          .containsEntry("VERSION", 1L);
      assertThat(app.admin().parked()).isEmpty();
    }
  }

  @Test
  void
      lateRedeliveryOfAnEvent_whoseReceiverCallsAOnceOperation_isParkedAsAlreadyAnswered_notRunAgain()
          throws Exception {
    try (Toa app = ledger("true")) {
      app.call("test.feed.post", Request.of(FEED, Map.of("account", ACCOUNT, "amount", 42)));
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      clock.advance(Duration.ofHours(2));

      publishAgain(directory.resolve(".toa/storage/test.feed.db"));
      await().atMost(SETTLE).until(() -> !app.admin().parked().isEmpty());

      assertThat(app.admin().parked())
          .singleElement()
          .satisfies(p -> assertThat(p.code()).isEqualTo("ALREADY_ANSWERED"));
      assertThat(account(app)).containsEntry("balance", 42L).containsEntry("VERSION", 1L);
    }
  }

  /**
   * Marks every outbox entry of the store unpublished, as an operator could: the sweep publishes
   * each again.
   */
  private static void publishAgain(Path store) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store)) {
      assertThat(
              c.createStatement()
                  .executeUpdate("UPDATE outbox SET published = NULL, claimed_until = 0"))
          .isPositive();
    }
  }

  @Test
  void chain_receiverDeliveredTwice_changesTheOnceOperationDownstreamOnce() {
    try (Toa app = ledger("true");
        Bus second = openSecondBus()) {
      app.call("test.feed.post", Request.of(FEED, Map.of("account", ACCOUNT, "amount", 42)));
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(account(app)).containsEntry("balance", 42L).containsEntry("VERSION", 1L);

      second.publish(publishedCopy("test.feed", "test.feed.created"));
      assertThat(app.admin().settle(SETTLE)).isEmpty();

      assertThat(account(app)).containsEntry("balance", 42L).containsEntry("VERSION", 1L);
      assertThat(counted(app, "toa.inbox.answers")).isEqualTo(1);
    }
  }

  /** The message the outbox published for the only entry of a component, made again. */
  private Message publishedCopy(String component, String label) {
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:sqlite:" + directory.resolve(".toa/storage/" + component + ".db"));
        ResultSet r = c.createStatement().executeQuery("SELECT id, change FROM outbox")) {
      assertThat(r.next()).isTrue();
      var change = Binding.VALUES.readTree(r.getString(2));
      return new Message(
          Identities.derive(r.getString(1), label),
          label,
          Binding.json(change.get("state")),
          Map.of("version", "1"));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private long inboxRows() throws Exception {
    return inboxRows("1 = 1");
  }

  private long inboxRows(String condition) throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:sqlite:" + directory.resolve(".toa/storage/test.ledger.db"));
        ResultSet r =
            c.createStatement().executeQuery("SELECT count(*) FROM inbox WHERE " + condition)) {
      return r.next() ? r.getLong(1) : 0;
    }
  }

  private Bus openSecondBus() {
    for (BusProvider p : ServiceLoader.load(BusProvider.class)) {
      if (p.name().equals("embedded"))
        return p.open(new BusSettings(directory.resolve(".toa"), Map.of(), clock));
    }
    throw new AssertionError("no embedded bus");
  }
}
