package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transitions over versioned state, on the shop ({@link Contexts#shop}): a record created by its
 * first write at version 1, one more per write; a discard that writes nothing and answers success
 * twice alike; a refusal that commits nothing; "make it so" (a debit of one order once); the
 * version precondition; {@code assign} checked against the entity's schema; {@code enumerate} in
 * creation order. An engine's test extends this and chooses the engines with {@link #engines()}.
 */
public abstract class TransitionsContract {
  static final String WALLET = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
  static final String ORDER = "4af147e8801b824e7bd03b000e1d4b64";

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /**
   * Moved on by hand: two records made in one test are made at distinct instants only if it says
   * so.
   */
  final TestClock clock = new TestClock();

  private Toa shop;

  /** The engines under test. */
  protected abstract Engines engines();

  @BeforeEach
  void boot() {
    shop = engines().builder(Contexts.shop(directory), Options.defaults().withClock(clock)).build();
  }

  @AfterEach
  void close() {
    if (shop != null) shop.close();
  }

  static Map<String, Object> credit(long amount, String ref) {
    return Map.of("amount", amount, "type", "goodwill", "ref", ref);
  }

  static Map<String, Object> output(Reply reply) {
    return Outputs.of(reply);
  }

  Map<String, Object> wallet() {
    return output(shop.call("billing.wallets.observe", Request.id(WALLET)));
  }

  @Test
  void observe_associatedNeverWritten_answersBlankWithItsId() {
    assertThat(wallet())
        .containsEntry("id", WALLET)
        .containsEntry("balance", 0L)
        .containsEntry("VERSION", 0L);
  }

  @Test
  void credit_associatedNeverWritten_createsTheRecordAtVersion1() {
    Map<String, Object> record =
        output(shop.call("billing.wallets.credit", Request.of(WALLET, credit(5000, "welcome"))));

    assertThat(record)
        .containsEntry("id", WALLET)
        .containsEntry("balance", 5000L)
        .containsEntry("VERSION", 1L);
    assertThat(record.get("CREATED")).isEqualTo(record.get("UPDATED"));
    assertThat(wallet()).isEqualTo(record);
  }

  @Test
  void credit_twice_addsTwiceAndGrowsTheVersion() {
    shop.call("billing.wallets.credit", Request.of(WALLET, credit(5000, "a")));
    shop.call("billing.wallets.credit", Request.of(WALLET, credit(5000, "b")));

    assertThat(wallet()).containsEntry("balance", 10000L).containsEntry("VERSION", 2L);
  }

  @Test
  void ship_calledTwice_discardsTheSecondAndAnswersSuccessBothTimes() {
    shop.call("fulfilment.shipments.pack", Request.id(ORDER));
    Map<String, Object> first =
        output(shop.call("fulfilment.shipments.ship", Request.of(ORDER, Map.of("carrier", "dhl"))));
    Map<String, Object> second =
        output(shop.call("fulfilment.shipments.ship", Request.of(ORDER, Map.of("carrier", "ups"))));

    assertThat(first)
        .containsEntry("status", "shipped")
        .containsEntry("carrier", "dhl")
        .containsEntry("VERSION", 2L);
    assertThat(second).isEqualTo(first);
    assertThat(output(shop.call("fulfilment.shipments.observe", Request.id(ORDER))))
        .isEqualTo(first);
  }

  @Test
  void ship_notPacked_isRefusedAndWritesNothing() {
    Reply reply =
        shop.call("fulfilment.shipments.ship", Request.of(ORDER, Map.of("carrier", "dhl")));

    assertThat(reply)
        .isInstanceOfSatisfying(
            Reply.Refused.class, r -> assertThat(r.refusal().code()).isEqualTo("NOT_PACKED"));
    assertThat(output(shop.call("fulfilment.shipments.observe", Request.id(ORDER))))
        .containsEntry("VERSION", 0L);
  }

  @Test
  void pack_discardedOnANeverWrittenRecord_createsNothing() {
    shop.call("fulfilment.shipments.pack", Request.id(ORDER));
    shop.call("fulfilment.shipments.pack", Request.id(ORDER));

    assertThat(output(shop.call("fulfilment.shipments.observe", Request.id(ORDER))))
        .containsEntry("VERSION", 1L);
  }

  @Test
  void debit_sameRefTwice_takesTheMoneyOnce() {
    shop.call("billing.wallets.credit", Request.of(WALLET, credit(5000, "topup")));
    Map<String, Object> first =
        output(
            shop.call(
                "billing.wallets.debit", Request.of(WALLET, Map.of("amount", 1200, "ref", ORDER))));
    Map<String, Object> second =
        output(
            shop.call(
                "billing.wallets.debit", Request.of(WALLET, Map.of("amount", 1200, "ref", ORDER))));

    assertThat(first).isEqualTo(Map.of("balance", 3800L));
    assertThat(second).isEqualTo(first);
    assertThat(wallet()).containsEntry("balance", 3800L).containsEntry("VERSION", 2L);
    assertThat((Map<?, ?>) wallet().get("paid")).isEqualTo(Map.of(ORDER, 1200L));
  }

  @Test
  void debit_overTheBalance_isRefusedAndCommitsNothing() {
    shop.call("billing.wallets.credit", Request.of(WALLET, credit(100, "topup")));

    Reply reply =
        shop.call(
            "billing.wallets.debit", Request.of(WALLET, Map.of("amount", 1200, "ref", ORDER)));

    assertThat(reply)
        .isInstanceOfSatisfying(
            Reply.Refused.class,
            r -> assertThat(r.refusal().code()).isEqualTo("INSUFFICIENT_FUNDS"));
    assertThat(wallet()).containsEntry("balance", 100L).containsEntry("VERSION", 1L);
  }

  @Test
  void versionPrecondition_otherVersion_failsWith412AndWritesNothing() {
    shop.call("billing.wallets.credit", Request.of(WALLET, credit(100, "a")));

    assertThatThrownBy(
            () ->
                shop.call(
                    "billing.wallets.credit", Request.of(Query.id(WALLET, 7), credit(100, "b"))))
        .isInstanceOfSatisfying(
            Failure.class,
            f -> {
              assertThat(f.code()).isEqualTo(Failure.Code.PRECONDITION);
              assertThat(f.code().status()).isEqualTo(412);
              assertThat(f).hasMessageContaining("at version 1, not 7");
            });
    shop.call("billing.wallets.credit", Request.of(Query.id(WALLET, 1), credit(100, "c")));
    assertThat(wallet()).containsEntry("balance", 200L).containsEntry("VERSION", 2L);
  }

  @Test
  void assign_patchesTheRecordAndValidatesIt() {
    shop.call("billing.wallets.credit", Request.of(WALLET, credit(100, "a")));

    Map<String, Object> record =
        output(shop.call("billing.wallets.assign", Request.of(WALLET, Map.of("balance", 7))));

    assertThat(record).containsEntry("balance", 7L).containsEntry("VERSION", 2L);
    assertThatThrownBy(
            () -> shop.call("billing.wallets.assign", Request.of(WALLET, Map.of("balance", -1))))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
        .hasMessageContaining("/balance");
    assertThat(wallet()).containsEntry("balance", 7L).containsEntry("VERSION", 2L);
  }

  @Test
  void enumerate_answersRecordsInCreationOrder() {
    String other = "0123456789abcdef0123456789abcdef";
    shop.call("billing.wallets.credit", Request.of(WALLET, credit(1, "a")));
    clock.advance(
        Duration.ofMillis(1)); // created at the same millisecond, records are ordered by id
    shop.call("billing.wallets.credit", Request.of(other, credit(2, "a")));

    Reply reply = shop.call("billing.wallets.enumerate", Request.empty());

    java.util.List<?> page = (java.util.List<?>) ((Reply.Output) reply).value().orElseThrow();
    assertThat(page.stream().map(r -> (Object) ((Map<?, ?>) r).get("balance")).toList())
        .containsExactly(1L, 2L);
  }
}
