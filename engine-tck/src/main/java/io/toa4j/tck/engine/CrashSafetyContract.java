package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.contexts.Contexts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process with SIGKILL at random moments while it records sources whose events a receiver
 * takes ({@link Contexts#sourceAndSink}, in a JVM of its own: {@link CrashWorker}), starts another
 * each time, and checks at the end that no event was lost: every recorded source reached the sink,
 * under exactly one identity, and nothing is parked. An engine's test extends this and chooses the
 * engines with {@link #engines()}; the worker opens the same ones.
 *
 * <p>{@code -Dtoa.crash.kills=N} runs a longer trial (10 kills by default); {@code
 * -Dtoa.crash.seed=S} repeats one.
 */
public abstract class CrashSafetyContract {
  static final int KILLS = Integer.getInteger("toa.crash.kills", 10);
  static final long SEED = Long.getLong("toa.crash.seed", System.nanoTime());

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The engines under test. */
  protected abstract Engines engines();

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void sigkillAtRandomMoments_losesNoEvent() throws Exception {
    Path context = Contexts.sourceAndSink(directory);
    Random random = new Random(SEED);
    long next = 1;
    long confirmed = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      Process worker = start(context, next, directory.resolve("worker-" + kill + ".log"));
      long last = next - 1;
      try {
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
        awaitLine(out, worker, "ready");
        long commitsBeforeKill = 1 + random.nextInt(40);
        for (long seen = 0; seen < commitsBeforeKill; seen++) {
          String line = awaitLine(out, worker, "committed ");
          last = Long.parseLong(line.substring("committed ".length()));
        }
      } finally {
        worker.destroyForcibly(); // SIGKILL: no shutdown hook, no flush, no close
      }
      assertThat(worker.waitFor(30, TimeUnit.SECONDS)).as("the worker died").isTrue();
      confirmed += last - next + 1;
      // The call after the last printed one may or may not have committed; the next run starts
      // after it, so a source that committed unseen is still checked below.
      next = last + 2;
    }

    try (Toa app = engines().builder(context, Options.defaults()).build()) {
      assertThat(app.admin().settle(Duration.ofSeconds(120))).as("seed %d", SEED).isEmpty();
      List<String> sources = allSources(app);
      assertThat((long) sources.size()).as("seed %d", SEED).isGreaterThanOrEqualTo(confirmed);
      for (String id : sources) {
        Map<String, Object> sink = Outputs.of(app.call("test.sinks.observe", Request.id(id)));
        assertThat(sink.get("received")).as("source %s, seed %d", id, SEED).isEqualTo(1L);
      }
      assertThat(app.admin().parked()).isEmpty();
    }
  }

  private Process start(Path context, long next, Path log) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    this.log = log;
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                CrashWorker.class.getName(),
                context.toString(),
                Long.toString(next)));
    command.addAll(CrashWorker.arguments(engines()));
    return new ProcessBuilder(command).redirectError(log.toFile()).start();
  }

  private Path log;

  /** The next line starting with the prefix; fails, with the worker's log, when it ends first. */
  private String awaitLine(BufferedReader out, Process worker, String prefix)
      throws IOException, InterruptedException {
    String line;
    while ((line = out.readLine()) != null) {
      if (line.startsWith(prefix)) return line;
    }
    worker.waitFor(30, TimeUnit.SECONDS);
    throw new AssertionError(
        "the worker ended ("
            + (worker.isAlive() ? "still alive" : "exit " + worker.exitValue())
            + ") before printing "
            + prefix
            + "; its log:\n"
            + java.nio.file.Files.readString(log));
  }

  private static List<String> allSources(Toa app) {
    List<String> ids = new ArrayList<>();
    for (long omit = 0; ; omit += 1000) {
      Reply reply =
          app.call(
              "test.sources.enumerate",
              new Request(
                  java.util.Optional.of(io.toa4j.api.Query.page(1000, omit)),
                  java.util.Optional.empty()));
      List<?> page = (List<?>) ((Reply.Output) reply).value().orElseThrow();
      page.forEach(r -> ids.add((String) ((Map<?, ?>) r).get("id")));
      if (page.size() < 1000) return ids;
    }
  }
}
