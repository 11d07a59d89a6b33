package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Callers of one process on one record take turns: none loses the compare-and-swap to another, so
 * even {@code concurrency: none} answers every call; a call that refuses, throws or discards in the
 * line changes nothing and holds up no one behind it. An engine's test extends this and names the
 * engines with {@link #engines()}.
 */
public abstract class TurnsContract {
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";
  static final int CALLERS = 16;
  static final int CALLS = 48; // CALLERS * CALLS is a multiple of the six modes

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The engines under test. */
  protected abstract Engines engines();

  /**
   * The ledger, its add declared {@code concurrency: none}: a lost compare-and-swap would fail its
   * call.
   */
  private Toa ledger() {
    Path context = Contexts.ledger(directory, "false");
    Contexts.edit(
        context,
        "components/test.ledger/manifest.toa.yaml",
        "concurrency: retry",
        "concurrency: none");
    return engines().builder(context, Options.defaults()).build();
  }

  private static Request add(long amount, String mode) {
    return Request.of(ACCOUNT, Map.of("amount", amount, "mode", mode));
  }

  @Test
  void callersOfOneRecord_takeTurns_noneLosesTheCompareAndSwap_evenWithoutRetry() throws Exception {
    try (Toa app = ledger()) {
      app.call("test.ledger.add", add(1, "ok"));

      List<Object> versions =
          together(
              app, call -> Outputs.of(app.call("test.ledger.add", add(1, "ok"))).get("VERSION"));

      assertThat(versions)
          .as("each call committed a version of its own")
          .containsExactlyInAnyOrderElementsOf(
              LongStream.rangeClosed(2, CALLERS * CALLS + 1).boxed().toList());
      assertThat(Outputs.of(app.call("test.ledger.observe", Request.id(ACCOUNT))))
          .containsEntry("balance", (long) CALLERS * CALLS + 1)
          .containsEntry("VERSION", (long) CALLERS * CALLS + 1);
      Timer conflicts = app.metrics().find("toa.commit").tag("outcome", "conflict").timer();
      assertThat(conflicts == null ? 0 : conflicts.count())
          .as("commits that lost the compare-and-swap")
          .isZero();
    }
  }

  @Test
  void aCallThatRefusesThrowsOrDiscardsInTheLine_changesNothing_andTheCallsBehindItGoOn()
      throws Exception {
    String[] modes = {"ok", "refuse", "ok", "throw", "ok", "discard"};
    try (Toa app = ledger()) {
      app.call("test.ledger.add", add(1, "ok"));

      List<Object> outcomes =
          together(
              app,
              call -> {
                String mode = modes[call % modes.length];
                try {
                  Reply reply = app.call("test.ledger.add", add(1, mode));
                  return mode + ":" + (reply instanceof Reply.Refused ? "refused" : "output");
                } catch (Failure f) {
                  return mode + ":" + f.code();
                }
              });

      int each = CALLERS * CALLS / modes.length;
      assertThat(outcomes).filteredOn("ok:output"::equals).hasSize(3 * each);
      assertThat(outcomes).filteredOn("refuse:refused"::equals).hasSize(each);
      assertThat(outcomes).filteredOn("throw:SYSTEM"::equals).hasSize(each);
      assertThat(outcomes).filteredOn("discard:output"::equals).hasSize(each);
      assertThat(Outputs.of(app.call("test.ledger.observe", Request.id(ACCOUNT))))
          .as("only the calls that made it so moved the record")
          .containsEntry("balance", 3L * each + 1)
          .containsEntry("VERSION", 3L * each + 1);
    }
  }

  @Test
  void onceCallsAndTheirTwinsInOneLine_moveTheRecordOncePerIdentity_andTwinsGetOneAnswer()
      throws Exception {
    Path context = Contexts.ledger(directory, "true");
    try (Toa app = engines().builder(context, Options.defaults()).build()) {
      app.call("test.ledger.add", add(1, "ok"));

      // callers c and c + CALLERS / 2 make the same calls, under the same identities, at once
      List<Object> answers =
          together(
              app,
              call -> {
                int identity = call % (CALLERS * CALLS / 2);
                Reply reply = app.call("test.ledger.add", add(1, "ok"), "call-" + identity);
                return identity + ":" + Outputs.of(reply).get("VERSION");
              });

      Map<String, List<Object>> byIdentity =
          answers.stream()
              .collect(java.util.stream.Collectors.groupingBy(a -> ((String) a).split(":")[0]));
      assertThat(byIdentity)
          .hasSize(CALLERS * CALLS / 2)
          .allSatisfy((identity, twins) -> assertThat(twins).hasSize(2).containsOnly(twins.get(0)));
      assertThat(Outputs.of(app.call("test.ledger.observe", Request.id(ACCOUNT))))
          .as("one credit per identity")
          .containsEntry("balance", (long) CALLERS * CALLS / 2 + 1)
          .containsEntry("VERSION", (long) CALLERS * CALLS / 2 + 1);
    }
  }

  /** A call numbered from 0 to CALLERS * CALLS - 1, answering what the test collects. */
  @FunctionalInterface
  interface Call {
    Object run(int call) throws Exception;
  }

  /** Runs CALLERS threads at once, each making CALLS calls; what they answered, in no order. */
  private static List<Object> together(Toa app, Call call) throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
    try {
      List<Future<List<Object>>> answers = new ArrayList<>();
      for (int t = 0; t < CALLERS; t++) {
        int caller = t;
        answers.add(
            callers.submit(
                () -> {
                  List<Object> mine = new ArrayList<>();
                  for (int i = 0; i < CALLS; i++) mine.add(call.run(caller * CALLS + i));
                  return mine;
                }));
      }
      List<Object> all = new ArrayList<>();
      for (Future<List<Object>> answer : answers) all.addAll(answer.get(5, TimeUnit.MINUTES));
      return all;
    } finally {
      callers.shutdownNow();
    }
  }
}
