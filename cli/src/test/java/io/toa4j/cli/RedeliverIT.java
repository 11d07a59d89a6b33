package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code toa outbox} and {@code toa redeliver} on the shop, as separate processes. */
class RedeliverIT {
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

  /** The one entry {@code toa outbox} lists, after checking there is one. */
  private JsonNode onlyEntry() {
    ToaShell.Result listed = toa.run(shop, "outbox");
    assertThat(listed.exitCode()).as("%s", listed).isZero();
    assertThat(listed.yaml()).as("%s", listed).hasSize(1);
    return listed.yaml().get(0);
  }

  @Test
  void handledTopup_isListed_redeliveredWhenTheContextNextRuns_andTheWalletsOnceAnswersIt() {
    assertThat(toa.run(shop, "outbox").out()).isEqualTo("[]\n");
    ToaShell.Result record =
        toa.run(shop, "call", "billing.topups.record", ToaShell.topup("chk-1", 300));
    assertThat(record.exitCode()).as("%s", record).isZero();

    JsonNode entry = onlyEntry();
    assertThat(entry.path("component").asText()).isEqualTo("billing.topups");
    assertThat(entry.path("published").isNull()).as("published: %s", entry).isFalse();
    assertThat(entry.path("events")).hasSize(1);
    assertThat(entry.path("events").get(0).path("event").asText()).isEqualTo("billing.topups.paid");
    assertThat(entry.path("events").get(0).path("message").asText()).matches("[0-9a-f]{32}");
    String id = entry.path("id").asText();

    ToaShell.Result again = toa.run(shop, "redeliver", id);
    assertThat(again.exitCode()).as("%s", again).isZero();
    assertThat(again.out()).isEqualTo("redelivered: 1 (billing.topups)\n");
    assertThat(onlyEntry().path("published").isNull()).as("waiting to be published again").isTrue();

    // The next run publishes it at boot; the wallet's credit (once) answers it from its inbox.
    toa.assertWallet(shop, 300, 1);
    assertThat(onlyEntry().path("published").isNull()).as("published again").isFalse();

    ToaShell.Result last =
        toa.run(shop, "redeliver", "--component", "billing.topups", "--last", "5");
    assertThat(last.exitCode()).as("%s", last).isZero();
    assertThat(last.out()).isEqualTo("redelivered: 1\n");
    assertThat(onlyEntry().path("published").isNull()).isTrue();
  }

  @Test
  void redeliver_besideARunningContext_isPublishedByIt() throws InterruptedException {
    ToaShell.Served run = toa.serve(shop, "run", Map.of());
    ToaShell.Result record =
        toa.run(shop, "call", "billing.topups.record", ToaShell.topup("chk-1", 300));
    assertThat(record.exitCode()).as("%s", record).isZero();
    await().atMost(Duration.ofSeconds(30)).until(() -> !onlyEntry().path("published").isNull());
    JsonNode before = onlyEntry();

    ToaShell.Result again = toa.run(shop, "redeliver", before.path("id").asText());
    assertThat(again.exitCode()).as("%s", again).isZero();

    Instant first = Instant.parse(before.path("published").asText());
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              JsonNode published = onlyEntry().path("published");
              return !published.isNull() && Instant.parse(published.asText()).isAfter(first);
            });
    toa.assertWallet(shop, 300, 1);
    run.stop();
  }

  @Test
  void redeliver_ofAnUnknownEntry_failsAndChangesNothing() {
    toa.run(shop, "call", "billing.topups.record", ToaShell.topup("chk-1", 300));
    JsonNode before = onlyEntry();

    ToaShell.Result unknown = toa.run(shop, "redeliver", "ffffffffffffffffffffffffffffffff");

    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err())
        .isEqualTo(
            "failed: no outbox entry has the id ffffffffffffffffffffffffffffffff; toa outbox lists them\n");
    assertThat(onlyEntry()).isEqualTo(before);
  }

  @Test
  void redeliver_ofAComponentNotInTheContext_fails_andBadCountsAreBadUsage() {
    ToaShell.Result unknown =
        toa.run(shop, "redeliver", "--component", "billing.nothing", "--last", "1");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err())
        .startsWith(
            "failed: Context shop has no component 'billing.nothing'; it has billing.topups,");

    assertThat(
            toa.run(shop, "redeliver", "--component", "billing.topups", "--last", "0").exitCode())
        .isEqualTo(64);
    assertThat(toa.run(shop, "outbox", "--last", "1001").exitCode()).isEqualTo(64);
    assertThat(toa.run(shop, "redeliver").exitCode())
        .as("neither an id nor a component")
        .isEqualTo(64);
    assertThat(toa.run(shop, "redeliver", "--component", "billing.topups").exitCode())
        .as("a component without --last")
        .isEqualTo(64);
  }
}
