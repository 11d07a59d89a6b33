package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
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
 * Many writers on one record of the shop ({@link Contexts#shop}), 16 threads of 250 credits: with
 * turns and {@code concurrency: retry} none is lost and none fails; without turns nor retry (as
 * writers in several processes race) some lose the compare-and-swap and are told, and only the
 * others count. An engine's test extends this and chooses the engines with {@link #engines()}.
 */
public abstract class ConcurrencyContract {
  static final String WALLET = TransitionsContract.WALLET;
  static final int THREADS = 16;
  static final int CALLS = 250;

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The engines under test. */
  protected abstract Engines engines();

  @Test
  void credit_16ThreadsWithRetry_endsWithTheExactBalanceAndVersion() throws Exception {
    try (Toa shop = engines().builder(Contexts.shop(directory), Options.defaults()).build()) {
      AtomicInteger failures = new AtomicInteger();

      hammer(shop, failures);

      Map<String, Object> wallet =
          Outputs.of(shop.call("billing.wallets.observe", Request.id(WALLET)));
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
    Path context = Contexts.shop(directory);
    Contexts.edit(
        context,
        "components/billing.wallets/manifest.toa.yaml",
        "  credit:\n    concurrency: retry",
        "  credit:\n    concurrency: none");
    try (Toa shop =
        engines().builder(context, Options.defaults().withTurnWait(Duration.ZERO)).build()) {
      AtomicInteger failures = new AtomicInteger();

      int succeeded = hammer(shop, failures);

      Map<String, Object> wallet =
          Outputs.of(shop.call("billing.wallets.observe", Request.id(WALLET)));
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
                              Request.of(WALLET, TransitionsContract.credit(3, thread + "-" + i)));
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
