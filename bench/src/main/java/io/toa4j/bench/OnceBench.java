package io.toa4j.bench;

import io.toa4j.api.Request;
import io.toa4j.runtime.Application;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code once} costs: the same credit operation on the embedded engine, declared with and
 * without {@code once}, in one run; then a repeat of each {@code once} call, answered from the
 * inbox, against its first call.
 *
 * <p>Each round runs both contexts, in alternating order, and the median of the rounds' ratios is
 * reported, so drift of the machine between rounds hits both alike. Calls go to distinct records
 * so the compare-and-swap never conflicts and what is measured is the write path.
 */
public final class OnceBench {
  private OnceBench() {}

  public static void main(String[] args) throws Exception {
    int calls = Figures.intArg(args, "--calls", 4000);
    int threads = Figures.intArg(args, "--threads", 8);
    int rounds = Figures.intArg(args, "--rounds", 15);
    int warmup = Figures.intArg(args, "--warmup", 10000);
    Path plainDir = context(false);
    Path onceDir = context(true);
    try (Application plain = Application.boot(plainDir); Application once = Application.boot(onceDir)) {
      // warm-up: the JIT compiles both paths before the rounds measure them; SQLite's caches fill
      for (int done = 0, chunk = 0; done < warmup; done += calls, chunk++) {
        run(plain, calls, threads, "warm-p" + chunk);
        run(once, calls, threads, "warm-o" + chunk);
      }
      List<Double> plainRates = new ArrayList<>();
      List<Double> onceRates = new ArrayList<>();
      List<Double> ratios = new ArrayList<>();
      List<Double> firstMicros = new ArrayList<>();
      List<Double> repeatMicros = new ArrayList<>();
      List<Double> plainCpu = new ArrayList<>();
      List<Double> onceCpu = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        // the order alternates, so what the first or the second run of a round suffers hits both
        Result plainRun = null;
        Result first = null;
        for (int turn = 0; turn < 2; turn++) {
          if ((round + turn) % 2 == 0) plainRun = run(plain, calls, threads, "p" + round);
          else first = run(once, calls, threads, "o" + round);
        }
        plainRates.add(plainRun.rate());
        onceRates.add(first.rate());
        ratios.add(first.rate() / plainRun.rate());
        firstMicros.add(first.meanMicros());
        plainCpu.add(plainRun.cpuMicros());
        onceCpu.add(first.cpuMicros());
        repeatMicros.add(run(once, calls, threads, "o" + round).meanMicros()); // the same identities again
      }
      double ratio = Figures.median(ratios);
      System.out.printf("credit without once: %.0f calls/s, JVM CPU %.0f µs per call (median of %d rounds of %d calls, %d threads, after %d calls each to warm up)%n",
          Figures.median(plainRates), Figures.median(plainCpu), rounds, calls, threads, warmup);
      System.out.printf("credit with once:    %.0f calls/s, JVM CPU %.0f µs per call%n", Figures.median(onceRates), Figures.median(onceCpu));
      System.out.printf("once / without:      %.3f  (median of the rounds' ratios; cost %.1f %%; target: at most 5 %%)%n", ratio, 100 * (1 - ratio));
      System.out.printf("first call:          %.0f µs mean latency%n", Figures.median(firstMicros));
      System.out.printf("repeat from inbox:   %.0f µs mean latency (%.3f of the first; target: below 1)%n",
          Figures.median(repeatMicros), Figures.median(repeatMicros) / Figures.median(firstMicros));
    }
  }

  /** Calls per second, the mean latency, and the CPU time the whole JVM spent per call. */
  record Result(double rate, double meanMicros, double cpuMicros) {}

  /** {@code calls} credits over {@code threads}, each on its own record under identity prefix-i. */
  private static Result run(Application app, int calls, int threads, String prefix) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicLong nanos = new AtomicLong();
    long cpu = Figures.cpuNanos();
    long start = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit(() -> {
        for (int i = thread; i < calls; i += threads) {
          String record = String.format("%08x%024x", prefix.hashCode(), i);
          long s = System.nanoTime();
          app.call("bench.wallets.credit", Request.of(record, Map.of("amount", 1)), prefix + "-" + i);
          nanos.addAndGet(System.nanoTime() - s);
        }
        return null;
      }));
    }
    for (Future<?> f : done) f.get(30, TimeUnit.MINUTES);
    pool.shutdown();
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Result(calls / seconds, nanos.get() / 1e3 / calls, (Figures.cpuNanos() - cpu) / 1e3 / calls);
  }

  private static Path context(boolean once) throws IOException {
    Path dir = Files.createTempDirectory("toa-bench-" + (once ? "once" : "plain"));
    Files.writeString(dir.resolve("context.toa.yaml"), "name: bench\n");
    Wallets.write(dir, "bench", once);
    return dir;
  }
}
