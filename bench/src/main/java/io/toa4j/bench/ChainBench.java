package io.toa4j.bench;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The shop's chain end to end: a top-up recorded, its {@code paid} event published from the outbox,
 * delivered to the wallets' receiver, and the wallet credited — on PostgreSQL and RabbitMQ (a
 * database and a virtual host of its own, dropped at the end), and on the embedded engine in the
 * same run for comparison. The baseline is the same chain written by hand ({@link ByHandChain}:
 * plain JDBC and the RabbitMQ client, outbox, relay and inbox), in the same run, on the same
 * database server and broker, with as many callers and top-ups, and the same bound on what its
 * callers may have recorded ahead of the credits ({@code --backlog}, the runtime's default unless
 * told). Both chains are open and warmed up together, then measured in turns, a round of each at a
 * time ({@code --rounds}), so that both meet the machine in the same hour; the runtime's
 * throughput, p99 and CPU per chain (this JVM's, and the whole machine's with the database and the
 * broker) are reported as the medians of the rounds' ratios to the chain by hand's.
 *
 * <p>Each top-up is for its own customer, so no two credits race. A chain's latency is from the
 * moment its record call starts to the wallet's {@code UPDATED} stamp (by hand, its {@code updated}
 * column), both on the system clock; throughput is top-ups over the time from the first record call
 * to the last credit. Each chain is warmed up with {@code --warmup} top-ups first (10,000 by
 * default: fewer leave the runtime's larger code to the JIT compiler during the measured run, on a
 * machine of two cores), and every wallet must hold exactly one top-up's amount at the end, or the
 * run fails.
 */
public final class ChainBench {
  private static final Path SHOP = Path.of("examples/shop");
  private static final String ADMIN = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";
  private static final long AMOUNT =
      100; // each top-up's, and so each wallet's balance once its chain is done
  private static final Duration SETTLE = Duration.ofMinutes(10);

  /** The runtime's backlog bound ({@link Options#backlog()}); 0 holds no caller back. */
  private static long backlog;

  /** How many top-ups warm each chain up before it is measured (JIT, pools, queues). */
  private static int warmup;

  private ChainBench() {}

  public static void main(String[] args) throws Exception {
    int topups = Figures.intArg(args, "--topups", 2000);
    int rounds = Figures.intArg(args, "--rounds", 3);
    int threads = Figures.intArg(args, "--threads", 8);
    backlog = Figures.intArg(args, "--backlog", (int) Options.BACKLOG);
    warmup = Figures.intArg(args, "--warmup", 10_000);
    byte[] random = new byte[6];
    new SecureRandom().nextBytes(random);
    String name = "toa_bench_" + HexFormat.of().formatHex(random);
    createDatabaseAndVirtualHost(name);
    try {
      String database = "jdbc:postgresql://127.0.0.1:5432/" + name + "?user=postgres";
      String broker = "amqp://guest:guest@127.0.0.1:5672/" + name;
      Map<String, String> distributed =
          Map.of(
              "TOA_STORAGE",
              "postgres",
              "TOA_STORAGE_URL",
              database,
              "TOA_BUS",
              "rabbitmq",
              "TOA_BUS_URL",
              broker);
      System.out.printf(
          "record -> paid -> credit, %d top-ups per round, %d rounds after %d to warm up, %d threads, backlog %d%n",
          topups, rounds, warmup, threads, backlog);
      List<Result> byHand = new ArrayList<>();
      List<Result> runtime = new ArrayList<>();
      Path context = copyShop();
      try (ByHandChain chain = ByHandChain.open(database, broker, backlog);
          Toa shop = open(context, distributed)) {
        Chain hand = byHand(chain);
        Chain toa = runtime(shop);
        warm(hand, threads);
        warm(toa, threads);
        for (int round = 0;
            round < rounds;
            round++) { // alternating, so both meet the machine's same hours
          byHand.add(measure(hand, "r" + round, topups, threads));
          report("by hand (JDBC + AMQP)", byHand.get(round));
          runtime.add(measure(toa, "r" + round, topups, threads));
          report("PostgreSQL + RabbitMQ", runtime.get(round));
        }
      }
      Path embedded = copyShop();
      try (Toa shop = open(embedded, Map.of())) {
        Chain toa = runtime(shop);
        warm(toa, threads);
        report("embedded (SQLite)    ", measure(toa, "r0", topups, threads));
      }
      List<Double> rate = new ArrayList<>();
      List<Double> p99 = new ArrayList<>();
      List<Double> jvm = new ArrayList<>();
      List<Double> machine = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        Result h = byHand.get(round);
        Result r = runtime.get(round);
        rate.add(r.rate() / h.rate());
        p99.add(
            (double) Figures.percentile(r.latencyMillis(), 0.99)
                / Figures.percentile(h.latencyMillis(), 0.99));
        jvm.add((double) r.jvmCpuNanos() / h.jvmCpuNanos());
        if (h.machineCpuNanos() > 0)
          machine.add((double) r.machineCpuNanos() / h.machineCpuNanos());
      }
      System.out.printf(
          "runtime / by hand on PostgreSQL + RabbitMQ (medians of the rounds): throughput %.2f, p99 %.2f,"
              + " JVM CPU per chain %.2f×, machine CPU per chain %s%n",
          Figures.median(rate),
          Figures.median(p99),
          Figures.median(jvm),
          machine.isEmpty() ? "unknown" : String.format("%.2f×", Figures.median(machine)));
    } finally {
      dropDatabaseAndVirtualHost(name);
    }
  }

  /**
   * One measured round: its throughput, each chain's latency (sorted), and the CPU time spent over
   * it by this JVM (its threads all, the JIT's and the collector's too) and by the whole machine
   * (the database's and the broker's too; -1 where unknown), per chain.
   */
  record Result(double rate, long[] latencyMillis, long jvmCpuNanos, long machineCpuNanos) {}

  /** One way to run the chain: through the runtime, or by hand. */
  interface Chain {
    /**
     * Records the top-up of {@code checkout} for {@code customer}: through the runtime as the
     * record {@code id}, by hand as the row keyed by the checkout.
     */
    void record(String id, String checkout, String customer) throws Exception;

    /** Returns once every top-up recorded has credited its wallet; throws when that cannot be. */
    void settle() throws Exception;

    /**
     * When the wallet of {@code customer} was credited (system clock, ms); throws unless it holds
     * {@link ChainBench#AMOUNT}.
     */
    long credited(String customer) throws Exception;
  }

  private static Toa open(Path context, Map<String, String> environment) {
    return Toa.builder()
        .directory(context)
        .options(
            Options.defaults()
                .withEnvironment(environment)
                .withBacklog(backlog, Options.BACKLOG_WAIT))
        .build();
  }

  private static Chain byHand(ByHandChain chain) {
    return new Chain() {
      @Override
      public void record(String id, String checkout, String customer) throws Exception {
        chain.record(checkout, customer, AMOUNT, "USD");
      }

      @Override
      public void settle() throws InterruptedException {
        chain.settle(SETTLE);
      }

      @Override
      public long credited(String customer) throws Exception {
        return chain.credited(customer, AMOUNT);
      }
    };
  }

  private static Chain runtime(Toa shop) {
    return new Chain() {
      @Override
      public void record(String id, String checkout, String customer) {
        shop.call(
            "billing.topups.record",
            Request.of(
                id,
                Map.of(
                    "checkout",
                    checkout,
                    "customer",
                    customer,
                    "amount",
                    AMOUNT,
                    "currency",
                    "USD")));
      }

      @Override
      public void settle() {
        shop.admin()
            .settle(SETTLE)
            .ifPresent(
                pending -> {
                  throw new IllegalStateException("the chain did not settle: " + pending);
                });
      }

      @Override
      public long credited(String customer) {
        return updated(shop, customer);
      }
    };
  }

  /** Top-ups to warm the chain up (JIT, pools, queues), settled. */
  private static void warm(Chain chain, int threads) throws Exception {
    chains(chain, warmup, threads, "warm");
    chain.settle();
  }

  /** A measured round of top-ups, their customers named by {@code round}, settled and checked. */
  private static Result measure(Chain chain, String round, int topups, int threads)
      throws Exception {
    long[] started = new long[topups];
    long jvm = Figures.cpuNanos();
    long machine = Figures.machineCpuNanos();
    long first = System.currentTimeMillis();
    chains(chain, topups, threads, round, started);
    chain.settle();
    long jvmSpent = Figures.cpuNanos() - jvm;
    long machineSpent = machine < 0 ? -1 : Figures.machineCpuNanos() - machine;
    long[] latencies = new long[topups];
    long last = 0;
    for (int i = 0; i < topups; i++) {
      long updated = chain.credited(customer(round, i));
      latencies[i] = updated - started[i];
      last = Math.max(last, updated);
    }
    return new Result(
        topups / ((last - first) / 1000.0),
        Figures.sorted(latencies),
        jvmSpent / topups,
        machineSpent < 0 ? -1 : machineSpent / topups);
  }

  private static void chains(Chain chain, int topups, int threads, String prefix) throws Exception {
    chains(chain, topups, threads, prefix, new long[topups]);
  }

  /** Records {@code topups} top-ups over {@code threads} threads, noting when each started. */
  private static void chains(Chain chain, int topups, int threads, String prefix, long[] started)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(
          pool.submit(
              () -> {
                for (int i = thread; i < topups; i += threads) {
                  started[i] = System.currentTimeMillis();
                  chain.record(
                      String.format("%032x", (prefix + i).hashCode() & 0xffffffffL),
                      prefix + "_" + i,
                      customer(prefix, i));
                }
                return null;
              }));
    }
    for (Future<?> f : done) f.get(30, TimeUnit.MINUTES);
    pool.shutdown();
  }

  private static String customer(String prefix, int i) {
    return String.format("%08x%024x", prefix.hashCode(), i);
  }

  private static long updated(Toa shop, String customer) {
    Reply reply = shop.call("billing.wallets.observe", Request.id(customer));
    @SuppressWarnings("unchecked")
    Map<String, Object> wallet =
        (Map<String, Object>)
            ((Reply.Output) reply)
                .value()
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "the wallet of " + customer + " was never credited"));
    if (((Number) wallet.get("balance")).longValue() != AMOUNT) {
      throw new IllegalStateException(
          "the wallet of " + customer + " holds " + wallet.get("balance") + ", not " + AMOUNT);
    }
    return ((Number) wallet.get("UPDATED")).longValue();
  }

  private static void report(String engine, Result result) {
    long[] l = result.latencyMillis();
    System.out.printf(
        "%s  %6.0f chains/s  latency p50 %4d ms  p99 %5d ms  p99.9 %5d ms  max %5d ms  CPU per chain: JVM %4d µs, machine %s%n",
        engine,
        result.rate(),
        Figures.percentile(l, 0.5),
        Figures.percentile(l, 0.99),
        Figures.percentile(l, 0.999),
        l[l.length - 1],
        result.jvmCpuNanos() / 1000,
        result.machineCpuNanos() < 0 ? "unknown" : (result.machineCpuNanos() / 1000) + " µs");
  }

  private static Path copyShop() throws IOException {
    Path target = Files.createTempDirectory("toa-bench-chain");
    try (Stream<Path> files = Files.walk(SHOP)) {
      for (Path source : (Iterable<Path>) files.sorted(Comparator.naturalOrder())::iterator) {
        Path relative = SHOP.relativize(source);
        if (relative.toString().startsWith(".toa")) continue;
        Path copy = target.resolve(relative.toString());
        if (Files.isDirectory(source)) Files.createDirectories(copy);
        else Files.copy(source, copy);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return target;
  }

  private static void createDatabaseAndVirtualHost(String name) throws Exception {
    try (Connection c = DriverManager.getConnection(ADMIN);
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    Broker.createVirtualHost(name);
  }

  private static void dropDatabaseAndVirtualHost(String name) throws Exception {
    try (Connection c = DriverManager.getConnection(ADMIN);
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }
    Broker.deleteVirtualHost(name);
  }
}
