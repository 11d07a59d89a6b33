package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.Parked;
import io.toa4j.spi.StoredRecord;
import io.toa4j.tck.contexts.Contexts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parking announced under real crashes, on the embedded engine: a process that parks messages
 * (orders of a negative amount, refused by two receivers) is killed with SIGKILL at random moments,
 * between any two of its steps — the parking's commit, its publish, the bus's park, the pager's
 * receipt — and started again; at the end every parked message was announced to the pager exactly
 * once, and every announcement is of a parked message. The pager takes each event {@code once}, so
 * an event delivered again after a crash is one receipt; a parking announced twice would be two
 * events, and one never announced none.
 *
 * <p>{@code -Dtoa.crash.kills=N} runs a longer trial (6 kills by default); {@code
 * -Dtoa.crash.seed=S} repeats one.
 */
class ParkedCrashTest {
  static final int KILLS = Integer.getInteger("toa.crash.kills", 6);
  static final long SEED = Long.getLong("toa.crash.seed", System.nanoTime());

  @TempDir Path directory;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void sigkillAtRandomMoments_announcesEveryParkedMessageOnce() throws Exception {
    Path context = Contexts.parkedEvents(directory, false);
    Path pager = context.resolve("components/test.pager/manifest.toa.yaml");
    Files.writeString(
        pager,
        Files.readString(pager)
            .replace("input: { type: object }", "input: { type: object }\n    once: true"));
    Random random = new Random(SEED);
    long next = 1;
    for (int kill = 0; kill < KILLS; kill++) {
      Process worker = start(context, next, directory.resolve("worker-" + kill + ".log"));
      long last = next - 1;
      try {
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
        awaitLine(out, worker, "ready", kill);
        long placedBeforeKill = 1 + random.nextInt(12);
        for (long seen = 0; seen < placedBeforeKill; seen++) {
          last =
              Long.parseLong(awaitLine(out, worker, "placed ", kill).substring("placed ".length()));
        }
      } finally {
        worker.destroyForcibly(); // SIGKILL: no shutdown hook, no flush, no close
      }
      assertThat(worker.waitFor(30, TimeUnit.SECONDS)).as("the worker died").isTrue();
      next = last + 2; // the order after the last printed one may have been placed unseen
    }

    try (Toa app = Toa.builder().directory(context).build()) {
      assertThat(app.admin().settle(Duration.ofSeconds(120))).as("seed %d", SEED).isEmpty();
      List<Parked> parked = app.admin().parked();
      List<StoredRecord> notes = app.storage().store("test.pager").page(10_000, 0);
      Map<String, Long> announced =
          notes.stream()
              .map(n -> Binding.object(n.state()))
              .filter(n -> n.path("state").asString().equals("parked"))
              .collect(
                  Collectors.groupingBy(
                      n -> n.path("message").asString() + " " + n.path("queue").asString(),
                      Collectors.counting()));
      Map<String, Long> expected =
          parked.stream()
              .collect(Collectors.toMap(p -> p.message().id() + " " + p.queue(), p -> 1L));
      assertThat(parked)
          .as("seed %d: two parked messages per order placed", SEED)
          .hasSizeGreaterThanOrEqualTo(2 * KILLS);
      assertThat(announced)
          .as("seed %d: each parked message announced once, nothing else announced", SEED)
          .isEqualTo(expected);
      assertThat(notes).as("seed %d", SEED).hasSameSizeAs(parked);
    }
  }

  private Process start(Path context, long next, Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            ParkingWorker.class.getName(),
            context.toString(),
            Long.toString(next))
        .redirectError(log.toFile())
        .start();
  }

  /** The next line starting with the prefix; fails, with the worker's log, when it ends first. */
  private String awaitLine(BufferedReader out, Process worker, String prefix, int kill)
      throws IOException, InterruptedException {
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith(prefix)) return line;
    }
    worker.waitFor(30, TimeUnit.SECONDS);
    throw new AssertionError(
        "the worker ended before printing "
            + prefix
            + "; its log:\n"
            + Files.readString(directory.resolve("worker-" + kill + ".log")));
  }
}
