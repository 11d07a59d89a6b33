package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
  void eventThatCannotBeReceived_isParked_listed_andReplayed() {
    assertThat(toa.run(shop, "parked").out()).isEqualTo("[]\n");

    ToaShell.Result record = toa.run(shop, "call", "billing.topups.record", BAD_TOPUP);
    assertThat(record.exitCode()).as("%s", record).isZero();

    ToaShell.Result parked = toa.run(shop, "parked");
    assertThat(parked.exitCode()).as("%s", parked).isZero();
    assertThat(parked.yaml()).hasSize(1);
    assertThat(parked.yaml().get(0).path("queue").asText()).isEqualTo("billing.topups.paid..billing.wallets");
    assertThat(parked.yaml().get(0).path("code").asText()).isEqualTo("CONTRACT");
    assertThat(parked.yaml().get(0).path("reason").asText()).contains("query.id must be 32 hexadecimal characters");
    assertThat(parked.yaml().get(0).path("attempts").asInt()).isEqualTo(1);

    ToaShell.Result unknown = toa.run(shop, "replay", "no-such-id");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err()).contains("no parked message has the id no-such-id");

    ToaShell.Result replay = toa.run(shop, "replay", parked.yaml().get(0).path("id").asText());
    assertThat(replay.exitCode()).as("%s", replay).isZero();
    assertThat(replay.out()).contains("replayed: 1");

    // Handled (and, failing the same way, parked again) when the context next runs.
    toa.run(shop, "call", "billing.wallets.observe", "{ query: { id: 8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f } }");
    ToaShell.Result again = toa.run(shop, "parked");
    assertThat(again.yaml()).hasSize(1);
    assertThat(again.yaml().get(0).path("attempts").asInt()).isEqualTo(2);

    assertThat(toa.run(shop, "replay", "--all").out()).contains("replayed: 1");
  }

  @Test
  void replay_withoutAnIdOrAll_isBadUsage() {
    assertThat(toa.run(shop, "replay").exitCode()).isEqualTo(64);
  }
}
