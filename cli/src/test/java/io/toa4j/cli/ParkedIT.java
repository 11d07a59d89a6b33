package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code toa parked} and {@code toa replay} on the shop, as separate processes. */
class ParkedIT {
  /** A top-up for a customer whose id is no record id: the wallet's credit cannot take it. */
  private static final String BAD_TOPUP =
      "{ query: { id: 4af147e8801b824e7bd03b000e1d4b64 }, input: { checkout: co_9, customer: nobody, amount: 5000, currency: USD } }";

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
  void aContinuousRunParked_isListedWithItsJournal() throws IOException {
    Path flows = Files.createDirectories(shop.resolve("components/audit.flows/operations"));
    Files.writeString(
        flows.getParent().resolve("manifest.toa.yaml"),
        """
        operations:
          trace: { type: effect, input: { type: object } }
        receivers:
          billing.topups.paid: trace
        continuity:
          trace: 600
        """);
    Files.writeString(
        flows.resolve("Trace.java"),
        """
        package audit.flows.operations;
        public class Trace implements io.toa4j.api.Effect<Trace.Input> {
          public record Input(String checkout) {}
          public Object effect(Input in, io.toa4j.api.Context context) {
            context.now();
            context.step("look", String.class, () -> "looked at " + in.checkout());
            throw new io.toa4j.api.Failure(io.toa4j.api.Failure.Code.CONTRACT, "the audit is closed");
          }
        }
        """);

    ToaShell.Result record =
        toa.run(shop, "call", "billing.topups.record", ToaShell.topup("co_audit", 700));
    assertThat(record.exitCode()).as("%s", record).isZero();

    ToaShell.Result parked = toa.run(shop, "parked");
    assertThat(parked.exitCode()).as("%s", parked).isZero();
    assertThat(parked.yaml()).hasSize(1);
    assertThat(parked.yaml().get(0).path("queue").asText())
        .isEqualTo("billing.topups.paid..audit.flows");
    assertThat(parked.yaml().get(0).path("journal").findValuesAsString("step"))
        .containsExactly("now #1", "step look #1");
    assertThat(parked.yaml().get(0).path("journal").get(1).path("bytes").asInt())
        .isEqualTo("\"looked at co_audit\"".length());
  }

  @Test
  void eventThatCannotBeReceived_isParked_listed_andReplayed() {
    assertThat(toa.run(shop, "parked").out()).isEqualTo("[]\n");

    ToaShell.Result record = toa.run(shop, "call", "billing.topups.record", BAD_TOPUP);
    assertThat(record.exitCode()).as("%s", record).isZero();

    ToaShell.Result parked = toa.run(shop, "parked");
    assertThat(parked.exitCode()).as("%s", parked).isZero();
    assertThat(parked.yaml()).hasSize(1);
    assertThat(parked.yaml().get(0).path("queue").asText())
        .isEqualTo("billing.topups.paid..billing.wallets");
    assertThat(parked.yaml().get(0).path("code").asText()).isEqualTo("CONTRACT");
    assertThat(parked.yaml().get(0).path("reason").asText())
        .contains("query.id must be 32 hexadecimal characters");
    assertThat(parked.yaml().get(0).path("attempts").asInt()).isEqualTo(1);

    ToaShell.Result unknown = toa.run(shop, "replay", "no-such-id");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err()).contains("no parked message has the id no-such-id");

    ToaShell.Result replay = toa.run(shop, "replay", parked.yaml().get(0).path("id").asText());
    assertThat(replay.exitCode()).as("%s", replay).isZero();
    assertThat(replay.out()).contains("replayed: 1");

    // Handled (and, failing the same way, parked again) when the context next runs.
    toa.run(
        shop,
        "call",
        "billing.wallets.observe",
        "{ query: { id: 8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f } }");
    ToaShell.Result again = toa.run(shop, "parked");
    assertThat(again.yaml()).hasSize(1);
    assertThat(again.yaml().get(0).path("attempts").asInt()).isEqualTo(2);

    assertThat(toa.run(shop, "replay", "--all").out()).contains("replayed: 1");
  }

  @Test
  void replay_withoutAnIdOrAll_isBadUsage() {
    assertThat(toa.run(shop, "replay").exitCode()).isEqualTo(64);
    assertThat(toa.run(shop, "replay", "12", "--all").exitCode())
        .as("an id and filters")
        .isEqualTo(64);
    assertThat(toa.run(shop, "discard", "--all").exitCode())
        .as("a discard without its reason")
        .isEqualTo(64);
    assertThat(toa.run(shop, "discard", "--all", "--reason", " ").exitCode()).isEqualTo(64);
    ToaShell.Result since = toa.run(shop, "replay", "--since", "yesterday");
    assertThat(since.exitCode()).isEqualTo(64);
    assertThat(since.err()).contains("--since takes an instant");
  }

  @Test
  void bulkReplayAndDiscard_takeFilters_andAskAboveTen() {
    parkTopups(12);
    assertThat(toa.run(shop, "parked").yaml()).hasSize(12);
    assertThat(
            toa.run(shop, "parked", "--operation", "billing.wallets.credit", "--limit", "4").yaml())
        .hasSize(4);
    assertThat(toa.run(shop, "parked", "--component", "fulfilment.shipments").out())
        .isEqualTo("[]\n");

    ToaShell.Result unconfirmed = toa.run(shop, "replay", "--component", "billing.wallets");
    assertThat(unconfirmed.exitCode()).as("%s", unconfirmed).isEqualTo(1);
    assertThat(unconfirmed.err())
        .contains("12 parked messages match")
        .contains("--yes")
        .contains("nothing was done");
    assertThat(toa.run(shop, "parked").yaml()).as("nothing replayed").hasSize(12);

    ToaShell.Result three =
        toa.run(
            shop,
            "replay",
            "--code",
            "CONTRACT",
            "--operation",
            "credit",
            "--since",
            "1h",
            "--limit",
            "3");
    assertThat(three.exitCode()).as("%s", three).isZero();
    assertThat(three.out()).isEqualTo("replayed: 3\n");
    assertThat(toa.run(shop, "parked").yaml()).as("three back on their queue").hasSize(9);

    assertThat(toa.run(shop, "discard", "--code", "SYSTEM", "--reason", "none match").out())
        .isEqualTo("discarded: 0\n");
    ToaShell.Result discard =
        toa.run(
            shop,
            "discard",
            "--component",
            "billing.wallets",
            "--reason",
            "test top-ups of nobody",
            "--yes");
    assertThat(discard.exitCode()).as("%s", discard).isZero();
    assertThat(discard.out()).isEqualTo("discarded: 9\n");
    assertThat(toa.run(shop, "parked").out()).isEqualTo("[]\n");

    // the runtime's own records of system.messages, read through the storage's SPI, as a context
    // opens them
    try (var storage =
        java.util.ServiceLoader.load(io.toa4j.spi.StorageProvider.class).stream()
            .map(java.util.ServiceLoader.Provider::get)
            .filter(p -> p.name().equals("sqlite"))
            .findFirst()
            .orElseThrow()
            .open(new io.toa4j.spi.StorageSettings(shop.resolve(".toa"), Map.of()))) {
      var records = storage.store("system.messages").page(100, 0);
      assertThat(records).hasSize(12);
      assertThat(records.stream().map(r -> r.state().text()))
          .filteredOn(text -> text.contains("\"state\":\"discarded\""))
          .hasSize(9)
          .allSatisfy(
              text -> assertThat(text).contains("\"discardReason\":\"test top-ups of nobody\""));
      assertThat(records.stream().map(r -> r.state().text()))
          .filteredOn(text -> text.contains("\"state\":\"replayed\""))
          .hasSize(3);
    }
  }

  /** Parks that many top-ups' events at the wallets, in a context booted here for a moment. */
  private void parkTopups(int count) {
    try (io.toa4j.runtime.Toa context = io.toa4j.runtime.Toa.builder().directory(shop).build()) {
      for (int n = 0; n < count; n++) {
        context.call(
            "billing.topups.record",
            io.toa4j.api.Request.of(
                String.format("%032x", n + 1),
                java.util.Map.of(
                    "checkout",
                    "co_" + n,
                    "customer",
                    "nobody",
                    "amount",
                    5000,
                    "currency",
                    "USD")));
      }
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofMinutes(1))
          .until(() -> context.admin().parked().size() == count);
    }
  }
}
