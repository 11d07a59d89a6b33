package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many writers on one record of a real SQLite file (taking turns: see the engine kit's {@code
 * TurnsContract}).
 */
class ConcurrencyTest {
  static final String WALLET = TransitionTest.WALLET;
  static final int THREADS = 16;
  static final int CALLS = 250;

  @TempDir Path directory;

  @Test
  void credit_16ThreadsWithRetry_endsWithTheExactBalanceAndVersion() throws Exception {
    try (Toa shop = Toa.builder().directory(Shop.copyTo(directory)).build()) {
      AtomicInteger failures = new AtomicInteger();

      hammer(shop, failures);

      Map<String, Object> wallet =
          TransitionTest.output(shop.call("billing.wallets.observe", Request.id(WALLET)));
      assertThat(failures).hasValue(0);
      assertThat(wallet)
          .containsEntry("balance", (long) (THREADS * CALLS * 3))
          .containsEntry("VERSION", (long) (THREADS * CALLS));
    }
  }

  /**
   * Without turns (as writers in several processes race): some lose the compare-and-swap, and are
   * told.
   */
  @Test
  void credit_16ThreadsWithoutRetryNorTurns_failsSomeWithConcurrencyAndCountsOnlyTheRest()
      throws Exception {
    Path context = Shop.copyTo(directory);
    Contexts.edit(
        context,
        "components/billing.wallets/manifest.toa.yaml",
        "  credit:\n    concurrency: retry",
        "  credit:\n    concurrency: none");
    try (Toa shop =
        Toa.builder()
            .directory(context)
            .options(Options.defaults().withTurnWait(Duration.ZERO))
            .build()) {
      AtomicInteger failures = new AtomicInteger();

      int succeeded = hammer(shop, failures);

      Map<String, Object> wallet =
          TransitionTest.output(shop.call("billing.wallets.observe", Request.id(WALLET)));
      assertThat(failures.get()).isPositive();
      assertThat(succeeded + failures.get()).isEqualTo(THREADS * CALLS);
      assertThat(wallet)
          .containsEntry("balance", (long) (succeeded * 3))
          .containsEntry("VERSION", (long) (succeeded));
    }
  }

  /** Runs THREADS × CALLS credits of 3; counts concurrency failures, rethrows any other. */
  private static int hammer(Toa shop, AtomicInteger concurrencyFailures) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  int ok = 0;
                  for (int i = 0; i < CALLS; i++) {
                    try {
                      Reply reply =
                          shop.call(
                              "billing.wallets.credit",
                              Request.of(WALLET, TransitionTest.credit(3, thread + "-" + i)));
                      assertThat(reply).isInstanceOf(Reply.Output.class);
                      ok++;
                    } catch (Failure f) {
                      if (f.code() != Failure.Code.CONCURRENCY) throw f;
                      concurrencyFailures.incrementAndGet();
                    }
                  }
                  return ok;
                }));
      }
      int succeeded = 0;
      for (Future<Integer> r : results) succeeded += r.get(10, TimeUnit.MINUTES);
      return succeeded;
    } finally {
      pool.shutdownNow();
    }
  }
}
