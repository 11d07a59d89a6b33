package io.toa4j.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Request;
import io.toa4j.test.core.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kit on the shop's folder: a top-up recorded, settled, and asserted on the wallet, the replies
 * and the events; in twice mode and crash mode, so each scenario also runs with every message
 * delivered twice, then with messages handed over again at the points a fresh seed picks, and ends
 * the same each time.
 */
class ShopScenarioTest {
  static final Path SHOP =
      Path.of(System.getProperty("toa.examples", "../examples")).resolve("shop");
  static final String TOPUP = "4af147e8801b824e7bd03b000e1d4b64";
  static final String CUSTOMER = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  @RegisterExtension final ToaContext toa = ToaContext.folder(SHOP).twice().crash();

  private static Request topup(String checkout) {
    return Request.of(
        TOPUP,
        Map.of("checkout", checkout, "customer", CUSTOMER, "amount", 5000, "currency", "USD"));
  }

  @Test
  void aTopUpRecorded_creditsTheWalletOnceItSettles() {
    toa.call("billing.topups.record", topup("co_1"), "provider-report-1");
    toa.settle();

    assertThat(toa.record("billing.wallets", CUSTOMER))
        .has("balance", 5000)
        .has("paid", Map.of())
        .hasVersion(1);
    assertThat(toa.record("billing.topups", TOPUP))
        .has("checkout", "co_1")
        .has("amount", 5000L)
        .hasVersion(1);
    assertThat(toa.events())
        .announced("billing.topups.paid", 1)
        .announced("billing.wallets.created", 1);
    assertThat(toa.events())
        .only("billing.topups.paid")
        .has("customer", CUSTOMER)
        .has("amount", 5000)
        .wasAnnouncedAtVersion(1);
    assertThat(toa.parked()).isEmpty();
  }

  @Test
  void theSameCheckoutReportedTwice_isOneTopUpAndOneCredit() {
    toa.call("billing.topups.record", topup("co_1"), "provider-report-1");
    toa.call("billing.topups.record", topup("co_1"), "provider-report-2");
    toa.settle();

    assertThat(toa.record("billing.wallets", CUSTOMER)).has("balance", 5000).hasVersion(1);
    assertThat(toa.events())
        .announced("billing.topups.paid", 1)
        .announced("billing.topups.created", 1)
        .didNotAnnounce("billing.topups.updated");
  }

  @Test
  void replies_areAssertedAsOutputsRefusalsAndInboxAnswers() {
    Request credit =
        Request.of(CUSTOMER, Map.of("amount", 700, "type", "goodwill", "ref", "welcome"));

    assertThat(toa.call("billing.wallets.credit", credit, "staff-1"))
        .isOutput()
        .isNotReplayed()
        .has("balance", 700)
        .has("VERSION", 1);
    assertThat(toa.call("billing.wallets.credit", credit, "staff-1"))
        .isReplayed()
        .has("balance", 700);
    assertThat(
            toa.call(
                "billing.wallets.debit",
                Request.of(CUSTOMER, Map.of("amount", 900, "ref", "order-1"))))
        .isRefused("INSUFFICIENT_FUNDS");
    assertThat(toa.record("billing.wallets", CUSTOMER)).has("balance", 700).hasVersion(1);
  }

  @Test
  void records_areStampedByTheTestClock() {
    toa.call(
        "billing.wallets.credit",
        Request.of(CUSTOMER, Map.of("amount", 700, "type", "goodwill", "ref", "welcome")));
    toa.advance(Duration.ofMinutes(5));
    toa.call(
        "billing.wallets.debit", Request.of(CUSTOMER, Map.of("amount", 200, "ref", "order-1")));

    assertThat(toa.record("billing.wallets", CUSTOMER))
        .has("balance", 500)
        .has("CREATED", TestClock.START.toEpochMilli())
        .wasUpdatedAt(TestClock.START.plus(Duration.ofMinutes(5)))
        .hasVersion(2);
    assertThat(toa.records("billing.wallets")).hasSize(1);
  }

  @Test
  void assertionsThatDoNotHold_sayWhatTheRecordHas() {
    toa.call(
        "billing.wallets.credit",
        Request.of(CUSTOMER, Map.of("amount", 700, "type", "goodwill", "ref", "welcome")));
    toa.settle(); // its event published, for the last message

    assertThatThrownBy(
            () -> assertThat(toa.record("billing.wallets", CUSTOMER)).has("balance", 5000))
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "Expected record billing.wallets %s to have balance = 5000, but it has balance = 700",
            CUSTOMER);
    assertThatThrownBy(() -> assertThat(toa.record("billing.wallets", CUSTOMER)).hasVersion(2))
        .hasMessageContaining("to be at VERSION 2, but it is at VERSION 1");
    assertThatThrownBy(
            () -> assertThat(toa.record("billing.wallets", CUSTOMER)).has("owner", "ann"))
        .hasMessageContaining(
            "it has no property 'owner'; it has [CREATED, UPDATED, VERSION, balance, id, paid]");
    assertThatThrownBy(() -> assertThat(toa.record("billing.wallets", TOPUP)).has("balance", 0))
        .hasMessage("Expected record billing.wallets %s to exist, but it was never written", TOPUP);
    assertThatThrownBy(() -> assertThat(toa.events()).announced("billing.topups.paid", 1))
        .hasMessageStartingWith(
            "Expected billing.topups.paid to be announced 1 time(s), but it was 0 time(s); announced: billing.wallets.created ");
  }

  @Test
  void aRecordOfAComponentTheContextDoesNotHave_isRefusedNamingThoseItHas() {
    assertThat(toa.record("billing.wallets", TOPUP)).doesNotExist();
    assertThatThrownBy(() -> toa.record("billing.wallet", CUSTOMER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "context shop has no component 'billing.wallet'; it has [billing.topups, billing.wallets, fulfilment.shipments]");
  }

  @Test
  void theProjectsFolder_isLeftAsItWas() {
    toa.call("billing.topups.record", topup("co_1"));
    toa.settle();

    assertThat(toa.state())
        .isDirectoryContaining(p -> p.getFileName().toString().equals("storage"));
    assertThat(toa.state().toString())
        .doesNotStartWith(SHOP.toAbsolutePath().normalize().toString());
  }

  /**
   * The shop's top-up as a scenario class of its own, for the twice and crash mode tests to run
   * through the JUnit Platform: each run notes in {@link #runs()} how often the credit was answered
   * by its inbox and the record discarded, and the points crash mode picked.
   */
  abstract static class TopUp {
    @RegisterExtension final ToaContext toa = context();

    /** The shop's context, in the mode under test. */
    abstract ToaContext context();

    /** Where each run notes what it saw. */
    abstract List<String> runs();

    @Test
    void aTopUpRecorded_creditsTheWalletOnce() {
      toa.call("billing.topups.record", topup("co_1"), "provider-report-1");
      toa.settle();

      String run =
          toa.crashPoint().isPresent() ? "crash: " : toa.deliversTwice() ? "twice: " : "once: ";
      runs()
          .add(
              run
                  + "credit answered by the inbox "
                  + Kit.counted(toa, "toa.inbox.answers", "billing.wallets.credit")
                  + " time(s), record discarded "
                  + Kit.counted(toa, "toa.discards", "billing.topups.record")
                  + " time(s)"
                  + (toa.crashPoints().isEmpty() ? "" : " " + toa.crashPoints()));
      assertThat(toa.record("billing.wallets", CUSTOMER)).has("balance", 5000).hasVersion(1);
    }
  }
}
