package io.toa4j.runtime;

import static io.toa4j.runtime.Shop.WALLET;
import static io.toa4j.runtime.Shop.output;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spi.Parked;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An input binds like its schema, on the shop booted on the embedded engine: what the schema allows
 * and the input class does not name is ignored; what the schema forbids is refused, named by its
 * JSON pointer. So an event's payload, which carries {@code id} and the system properties, can be
 * an operation's input.
 */
class InputBindingTest {
  static final Duration SETTLE = Duration.ofSeconds(30);
  static final String MANIFEST = "components/billing.wallets/manifest.toa.yaml";
  static final String CHECKOUT = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  private static Map<String, Object> wallet(Toa shop) {
    return output(shop.call("billing.wallets.observe", Request.id(WALLET)));
  }

  private static Request paid(long amount) {
    return Request.of(
        CHECKOUT,
        Map.of("checkout", "chk-1", "customer", WALLET, "amount", amount, "currency", "EUR"));
  }

  @Test
  void input_withAPropertyTheSchemaAllowsAndTheClassLacks_bindsIgnoringIt() {
    try (Toa shop = Toa.builder().directory(Shop.copyTo(directory)).build()) {
      Reply reply =
          shop.call(
              "billing.wallets.credit",
              Request.of(WALLET, Map.of("amount", 5, "type", "topup", "ref", "c1", "note", "x")));

      assertThat(output(reply))
          .containsEntry("balance", 5L)
          .containsEntry("VERSION", 1L)
          .doesNotContainKey("note");
    }
  }

  @Test
  void input_withAPropertyTheSchemaForbids_isAContractFailureNamingItsPointer_andChangesNothing() {
    Path context = Shop.copyTo(directory);
    Contexts.edit(
        context,
        MANIFEST,
        "      required: [amount, type, ref]\n",
        "      required: [amount, type, ref]\n      additionalProperties: false\n");
    try (Toa shop = Toa.builder().directory(context).build()) {
      shop.call(
          "billing.wallets.credit",
          Request.of(WALLET, Map.of("amount", 5, "type", "topup", "ref", "c1")));

      assertThatThrownBy(
              () ->
                  shop.call(
                      "billing.wallets.credit",
                      Request.of(
                          WALLET, Map.of("amount", 5, "type", "topup", "ref", "c2", "note", "x"))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
          .hasMessageContaining("/note")
          .hasMessageNotContaining("Input");
      assertThat(wallet(shop)).containsEntry("balance", 5L).containsEntry("VERSION", 1L);
    }
  }

  @Test
  void receiverWithoutAClass_callsItsOperationWithThePayload_whichIsHandledNotParked() {
    Path context = Shop.copyTo(directory);
    Contexts.write(
        context,
        "components/billing.ledger/manifest.toa.yaml",
        """
        # A line per paid top-up, written from the event's payload as it is: no receiver class.
        entity:
          properties:
            customer: { type: string }
            amount: { type: integer }
        operations:
          note:
            input:
              type: object
              properties:
                customer: { type: string }
                amount: { type: integer }
              required: [customer, amount]
        receivers:
          billing.topups.paid: note
        """);
    Contexts.write(
        context,
        "components/billing.ledger/Line.java",
        """
        package billing.ledger;
        public class Line extends io.toa4j.api.Entry {
          public String customer;
          public Long amount;
        }
        """);
    Contexts.write(
        context,
        "components/billing.ledger/operations/Note.java",
        """
        package billing.ledger.operations;
        import billing.ledger.Line;
        public class Note implements io.toa4j.api.Transition<Note.Input, Line> {
          public record Input(String customer, long amount) {}
          public Object transition(Input input, Line entry) {
            entry.customer = input.customer();
            entry.amount = input.amount();
            return entry;
          }
        }
        """);
    try (Toa shop = Toa.builder().directory(context).build()) {
      shop.call("billing.topups.record", paid(300));

      assertThat(shop.admin().settle(SETTLE)).isEmpty();
      assertThat(shop.admin().parked()).isEmpty();
      Reply lines = shop.call("billing.ledger.enumerate", Request.empty());
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> page =
          (List<Map<String, Object>>) ((Reply.Output) lines).value().orElseThrow();
      assertThat(page)
          .singleElement()
          .satisfies(
              line ->
                  assertThat(line).containsEntry("customer", WALLET).containsEntry("amount", 300L));
      assertThat(wallet(shop)).containsEntry("balance", 300L);
    }
  }

  @Test
  void receiverClassThatCannotReadThePayload_parksItNamingThePointer_notTheClass() {
    Path context = Shop.copyTo(directory);
    Contexts.edit(
        context,
        "components/billing.wallets/receivers/BillingTopupsPaid.java",
        "public record Topup(String checkout, String customer, long amount) {}",
        "public record Topup(String checkout, String customer, long amount, long currency) {}");
    try (Toa shop = Toa.builder().directory(context).build()) {
      shop.call("billing.topups.record", paid(300));

      await().atMost(SETTLE).until(() -> shop.admin().parked().size() == 1);
      Parked parked = shop.admin().parked().get(0);
      assertThat(parked.code()).isEqualTo("CONTRACT");
      assertThat(parked.attempts()).isEqualTo(1);
      assertThat(parked.reason())
          .contains("/currency: expected a whole number", "got \"EUR\"")
          .doesNotContain("Topup", "BillingTopupsPaid");
      assertThat(wallet(shop)).containsEntry("VERSION", 0L);
    }
  }
}
