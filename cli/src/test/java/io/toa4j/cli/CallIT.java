package io.toa4j.cli;

import static io.toa4j.cli.ToaShell.WALLET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code toa call} with no {@code toa run}: each call boots the context in its own process. */
class CallIT {
  private static final String CREDIT_5000 =
      "{ query: { id: " + WALLET + " }, input: { amount: 5000, type: topup, ref: checkout-1 } }";

  @TempDir Path temp;
  private Path shop;
  private ToaShell toa;

  @BeforeEach
  void copyShop() throws IOException {
    shop = ToaShell.copyOfShop(temp);
    toa = new ToaShell(Files.createDirectories(temp.resolve("logs")));
  }

  @AfterEach
  void stop() throws InterruptedException {
    toa.close();
  }

  @Test
  void credit_thenObserveInAnotherProcess_showsTheCommittedRecord() {
    ToaShell.Result credit = toa.run(shop, "call", "billing.wallets.credit", CREDIT_5000);

    assertThat(credit.exitCode()).as("%s", credit).isZero();
    assertThat(credit.out())
        .doesNotStartWith("---")
        .contains("id: " + WALLET, "balance: 5000", "VERSION: 1");
    assertThat(credit.err()).as("without --verbose, an output leaves stderr empty").isEmpty();

    ToaShell.Result observe =
        toa.run(shop, "call", "billing.wallets.observe", "{ query: { id: " + WALLET + " } }");

    assertThat(observe.exitCode()).as("%s", observe).isZero();
    assertThat(observe.yaml().path("id").asText()).isEqualTo(WALLET);
    assertThat(observe.yaml().path("balance").asLong()).isEqualTo(5000);
    assertThat(observe.yaml().path("VERSION").asLong()).isEqualTo(1);
  }

  @Test
  void debit_moreThanTheBalance_exits2WithTheRefusalAndChangesNothing() {
    assertThat(toa.run(shop, "call", "billing.wallets.credit", CREDIT_5000).exitCode()).isZero();

    ToaShell.Result debit =
        toa.run(
            shop,
            "call",
            "billing.wallets.debit",
            "{ query: { id: " + WALLET + " }, input: { amount: 6000, ref: order-1 } }");

    assertThat(debit.exitCode()).as("%s", debit).isEqualTo(2);
    assertThat(debit.err()).contains("refused: INSUFFICIENT_FUNDS");
    assertThat(debit.out()).isEmpty();
    toa.assertWallet(shop, 5000, 1);
  }

  @Test
  void badCalls_exit1NamingTheProblemAndChangeNothing() {
    assertThat(toa.run(shop, "call", "billing.wallets.credit", CREDIT_5000).exitCode()).isZero();

    assertFails(
        toa.run(shop, "call", "billing.wallets.credit", "{ query: { id: " + WALLET),
        "failed (CONTRACT): the request is not YAML");
    assertFails(toa.run(shop, "call", "billing.purses.credit", CREDIT_5000), "billing.purses");
    assertFails(toa.run(shop, "call", "billing.wallets.refund", CREDIT_5000), "refund");
    ToaShell.Result schema =
        toa.run(
            shop,
            "call",
            "billing.wallets.credit",
            "{ query: { id: " + WALLET + " }, input: { amount: -5, type: topup, ref: c2 } }");
    assertFails(schema, "failed (CONTRACT)");
    assertThat(schema.err()).contains("schema", "amount");

    toa.assertWallet(shop, 5000, 1);
  }

  @Test
  void componentThatDoesNotCompile_exits1NamingFileAndLine_andNothingRuns() throws IOException {
    assertThat(toa.run(shop, "call", "billing.wallets.credit", CREDIT_5000).exitCode()).isZero();
    Path debit = shop.resolve("components/billing.wallets/operations/Debit.java");
    String original = Files.readString(debit);
    Files.writeString(
        debit,
        String.join(
            "\n",
            "package billing.wallets.operations;",
            "",
            "import billing.wallets.Wallet;",
            "import io.toa4j.api.Transition;",
            "",
            "public class Debit implements Transition<Debit.Input, Wallet> {",
            "  public record Input(long amount, String ref) {}",
            "",
            "  @Override",
            "  public Object transition(Input input, Wallet entry) {",
            "    entry.balance -= input.amount()", // line 11: no semicolon
            "    return entry;",
            "  }",
            "}",
            ""));

    ToaShell.Result credit =
        toa.run(
            shop,
            "call",
            "billing.wallets.credit",
            CREDIT_5000.replace("checkout-1", "checkout-2"));

    assertThat(credit.exitCode()).as("%s", credit).isEqualTo(1);
    assertThat(credit.err()).contains("Debit.java:11").doesNotContain("\tat ");
    assertThat(credit.out()).isEmpty();

    Files.writeString(debit, original);
    toa.assertWallet(shop, 5000, 1);
  }

  @Test
  void topupRecordedInProcess_creditsTheWalletBeforeTheCallExits() {
    ToaShell.Result record =
        toa.run(shop, "call", "billing.topups.record", ToaShell.topup("chk-1", 300));

    assertThat(record.exitCode()).as("%s", record).isZero();
    assertThat(record.err()).as("everything it caused was handled within the call").isEmpty();
    toa.assertWallet(shop, 300, 1); // credited by the wallet's receiver of billing.topups.paid
  }

  @Test
  void call_fromAFolderInsideTheContext_findsTheContextUpwards() {
    Path operations = shop.resolve("components/billing.wallets/operations");

    ToaShell.Result credit = toa.run(operations, "call", "billing.wallets.credit", CREDIT_5000);

    assertThat(credit.exitCode()).as("%s", credit).isZero();
    assertThat(shop.resolve(".toa")).isDirectory();
  }

  @Test
  void call_withStatedIdentityAndVerbose_saysItRanInProcessUnderThatIdentity() {
    ToaShell.Result credit =
        toa.run(
            shop,
            "call",
            "--verbose",
            "--id",
            "checkout-1-credit",
            "billing.wallets.credit",
            CREDIT_5000);

    assertThat(credit.exitCode()).as("%s", credit).isZero();
    assertThat(credit.err()).contains("in-process", "identity checkout-1-credit");
  }

  @Test
  void twoCallsAtOnce_withoutToaRun_bothAnswer_andTheWalletHoldsBothCredits() throws Exception {
    Path logs = temp.resolve("logs");
    String second =
        CREDIT_5000.replace("amount: 5000", "amount: 700").replace("checkout-1", "checkout-2");
    Process one =
        toa.start(
            shop,
            logs.resolve("one.out"),
            logs.resolve("one.err"),
            "call",
            "--verbose",
            "billing.wallets.credit",
            CREDIT_5000);
    Process two =
        toa.start(
            shop,
            logs.resolve("two.out"),
            logs.resolve("two.err"),
            "call",
            "--verbose",
            "billing.wallets.credit",
            second);

    for (Process process : List.of(one, two)) {
      assertThat(process.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS))
          .as("the call ends")
          .isTrue();
    }

    String told = ToaShell.read(logs.resolve("one.err")) + ToaShell.read(logs.resolve("two.err"));
    assertThat(one.exitValue()).as("%s", told).isZero();
    assertThat(two.exitValue()).as("%s", told).isZero();
    assertThat(told).doesNotContain("Another bus", "\tat ");
    toa.assertWallet(shop, 5700, 2);
  }

  @Test
  void call_whileAnotherHoldsTheContext_waitsForIt_thenAnswers() throws Exception {
    Path logs = temp.resolve("logs");
    Process call;
    try (CallLock held = CallLock.take(shop, Duration.ZERO, note -> {})) {
      call =
          toa.start(
              shop,
              logs.resolve("call.out"),
              logs.resolve("call.err"),
              "call",
              "--verbose",
              "billing.wallets.credit",
              CREDIT_5000);

      await()
          .atMost(ToaShell.DEADLINE)
          .until(() -> ToaShell.read(logs.resolve("call.err")).contains("waiting for it to end"));
      assertThat(ToaShell.read(logs.resolve("call.err")))
          .contains("another toa call (pid " + ProcessHandle.current().pid() + ")");
      assertThat(call.isAlive()).as("it waits while the context is held").isTrue();
    }

    assertThat(call.waitFor(ToaShell.DEADLINE.toSeconds(), TimeUnit.SECONDS))
        .as("the call ends")
        .isTrue();
    assertThat(call.exitValue()).as("%s", ToaShell.read(logs.resolve("call.err"))).isZero();
    toa.assertWallet(shop, 5000, 1);
  }

  @Test
  void call_whoseEventIsParked_answers_andTellsTheParkedMessageInOneLine() throws IOException {
    Path receiver = shop.resolve("components/billing.wallets/receivers/BillingTopupsPaid.java");
    String reads = "public record Topup(String checkout, String customer, long amount) {}";
    Files.writeString(
        receiver,
        Files.readString(receiver)
            .replace(reads, reads.replace("long amount)", "long amount, long currency)")));

    ToaShell.Result record =
        toa.run(shop, "call", "billing.topups.record", ToaShell.topup("chk-1", 300));

    assertThat(record.exitCode()).as("%s", record).isZero();
    assertThat(record.err().lines())
        .as("%s", record)
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .startsWith(
                        "toa: parked a message of billing.topups.paid..billing.wallets after 1 attempt: CONTRACT: ")
                    .contains("/currency", "toa replay "));
    toa.assertWallet(shop, 0, 0);
  }

  @Test
  void call_idOfDigitsUnquoted_exits1WithAHintToQuoteIt() {
    ToaShell.Result observe =
        toa.run(
            shop,
            "call",
            "billing.wallets.observe",
            "{ query: { id: 12345678901234567890123456789012 } }");

    assertFails(observe, "quote the id");
    assertThat(observe.err()).contains("{ query: { id: \"12345678901234567890123456789012\" } }");
  }

  private static void assertFails(ToaShell.Result result, String message) {
    assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
    assertThat(result.err()).as("%s", result).contains(message).doesNotContain("\tat ");
    assertThat(result.out()).isEmpty();
  }
}
