package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * However duplicate deliveries, concurrent twins and restarts interleave over a set of credits made
 * once, the balance is the sum of the distinct credits.
 */
class OncePropertyTest {

  /** One step of a run: a credit's call made by one or more copies at once, or a restart. */
  record Step(int credit, int copies, boolean restart) {}

  @Property(tries = 12)
  void anyInterleaving_endsWithTheSumOfDistinctCredits(
      @ForAll("steps") @Size(min = 1, max = 25) List<Step> steps) throws Exception {
    Path directory = Files.createTempDirectory("toa-once-property");
    try {
      Contexts.ledger(directory, "true");
      Map<Integer, Long> distinct = new HashMap<>();
      Toa app = Toa.builder().directory(directory).build();
      try {
        for (Step step : steps) {
          if (step.restart()) {
            app.close();
            app = Toa.builder().directory(directory).build();
            continue;
          }
          long amount =
              1L << step.credit(); // distinct powers of two: a double credit shows in the sum
          distinct.put(step.credit(), amount);
          deliver(app, step.credit(), amount, step.copies());
        }
        Map<String, Object> account =
            Shop.output(app.call("test.ledger.observe", Request.id(OnceTest.ACCOUNT)));
        long expected = distinct.values().stream().mapToLong(Long::longValue).sum();
        // no credit at all (only restarts drawn) leaves the account unwritten: nothing to show, 0
        assertThat(account.getOrDefault("balance", 0L)).isEqualTo(expected);
        assertThat(account.getOrDefault("VERSION", 0L)).isEqualTo((long) distinct.size());
      } finally {
        app.close();
      }
    } finally {
      delete(directory);
    }
  }

  /** The same call, under one identity, by {@code copies} callers at once. */
  private static void deliver(Toa app, int credit, long amount, int copies) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(copies);
    try {
      List<Future<?>> calls = new ArrayList<>();
      for (int i = 0; i < copies; i++) {
        calls.add(
            pool.submit(
                (Callable<Object>)
                    () ->
                        app.call(
                            "test.ledger.add",
                            Request.of(OnceTest.ACCOUNT, Map.of("amount", amount, "mode", "ok")),
                            "credit-" + credit)));
      }
      for (Future<?> call : calls) call.get(60, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }
  }

  @Provide
  Arbitrary<List<Step>> steps() {
    Arbitrary<Step> call =
        Combinators.combine(
                Arbitraries.integers().between(0, 8), Arbitraries.integers().between(1, 4))
            .as((credit, copies) -> new Step(credit, copies, false));
    Arbitrary<Step> restart = Arbitraries.just(new Step(0, 0, true));
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(8, call), net.jqwik.api.Tuple.of(1, restart))
        .list();
  }

  private static void delete(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator)
        Files.deleteIfExists(p);
    }
  }
}
