package io.toa4j.bench;

import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.Json;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code once} costs: the same credit operation, declared with and without {@code once}, in
 * one run; then a repeat of each {@code once} call, answered from the inbox, against its first
 * call.
 *
 * <p>The floor is measured in the same rounds: the storage alone, through its SPI with no runtime
 * around it, committing the same new records with and without an inbox entry beside each. What that
 * entry costs the engine is the least {@code once} can cost; what the runtime adds on top of it is
 * the look-up before running, the fingerprint and the answer's text.
 *
 * <p>Each round runs every program once, in an order that rotates from round to round, and the
 * median of the rounds' ratios is reported, so drift of the machine between rounds hits all alike.
 * Calls go to distinct records so the compare-and-swap never conflicts and what is measured is the
 * write path. {@code --engine postgres} runs the same on PostgreSQL ({@code --url}, default {@code
 * TOA_POSTGRES_URL} or the local server), in schemas of its own that it drops at the end.
 */
public final class OnceBench {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OnceBench() {}

  public static void main(String[] args) throws Exception {
    int calls = Figures.intArg(args, "--calls", 4000);
    int threads = Figures.intArg(args, "--threads", 8);
    int rounds = Figures.intArg(args, "--rounds", 15);
    int warmup = Figures.intArg(args, "--warmup", 10000);
    String engine = Figures.stringArg(args, "--engine", "sqlite");
    String url =
        Figures.stringArg(
            args,
            "--url",
            System.getenv()
                .getOrDefault("TOA_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test"));
    if (!engine.equals("sqlite") && !engine.equals("postgres")) {
      throw new IllegalArgumentException("--engine is sqlite or postgres, not '" + engine + "'");
    }
    String storage =
        engine.equals("sqlite") ? "" : "storage:\n  engine: postgres\n  url: " + url + "\n";
    byte[] random = new byte[4];
    new SecureRandom().nextBytes(random);
    String suffix = HexFormat.of().formatHex(random);
    String plainNs = "plain" + suffix;
    String onceNs = "once" + suffix;
    String aloneNs = "alone" + suffix;
    Map<String, String> options = engine.equals("sqlite") ? Map.of() : Map.of("url", url);
    try (Toa plain = Toa.builder().directory(context(plainNs, false, storage)).build();
        Toa once = Toa.builder().directory(context(onceNs, true, storage)).build();
        Storage alone = open(engine, Files.createTempDirectory("toa-bench-alone"), options)) {
      try {
        Store bare = alone.store(aloneNs + ".plain");
        Store inboxed = alone.store(aloneNs + ".inboxed");
        List<Program> programs =
            List.of(
                new Program(
                    "runtime, without once",
                    (record, identity) ->
                        plain.call(
                            plainNs + ".wallets.credit",
                            Request.of(record, Map.of("amount", 1)),
                            identity)),
                new Program(
                    "runtime, with once",
                    (record, identity) ->
                        once.call(
                            onceNs + ".wallets.credit",
                            Request.of(record, Map.of("amount", 1)),
                            identity)),
                new Program(
                    "storage alone, record",
                    (record, identity) -> commit(bare, record, Optional.empty())),
                new Program(
                    "storage alone, record + inbox entry",
                    (record, identity) -> commit(inboxed, record, Optional.of(identity))));
        // warm-up: the JIT compiles every path before the rounds measure them; the caches fill
        for (int done = 0, chunk = 0; done < warmup; done += calls, chunk++) {
          for (Program p : programs) run(p.load(), calls, threads, "warm" + chunk);
        }
        List<List<Result>> results = new ArrayList<>();
        for (int i = 0; i < programs.size(); i++) results.add(new ArrayList<>());
        List<Double> runtimeRatios = new ArrayList<>();
        List<Double> aloneRatios = new ArrayList<>();
        List<Double> repeatMicros = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
          // the order rotates, so what the first or the last run of a round suffers hits all alike
          Result[] r = new Result[programs.size()];
          for (int turn = 0; turn < programs.size(); turn++) {
            int p = (round + turn) % programs.size();
            r[p] = run(programs.get(p).load(), calls, threads, "r" + round);
            results.get(p).add(r[p]);
          }
          runtimeRatios.add(r[1].rate() / r[0].rate());
          aloneRatios.add(r[3].rate() / r[2].rate());
          repeatMicros.add(
              run(programs.get(1).load(), calls, threads, "r" + round)
                  .meanMicros()); // the same identities again
        }
        System.out.printf(
            "%s, credit on distinct records: median of %d rounds of %d calls, %d threads, after %d calls each to warm up%n",
            engine.equals("sqlite") ? "SQLite (embedded)" : "PostgreSQL " + url,
            rounds,
            calls,
            threads,
            warmup);
        for (int p = 0; p < programs.size(); p++) {
          List<Result> rs = results.get(p);
          System.out.printf(
              "  %-36s %7.0f calls/s  %6.0f µs mean latency  JVM CPU %4.0f µs per call%n",
              programs.get(p).name(),
              Figures.median(rs.stream().map(Result::rate).toList()),
              Figures.median(rs.stream().map(Result::meanMicros).toList()),
              Figures.median(rs.stream().map(Result::cpuMicros).toList()));
        }
        double runtimeRatio = Figures.median(runtimeRatios);
        double aloneRatio = Figures.median(aloneRatios);
        double firstMicros =
            Figures.median(results.get(1).stream().map(Result::meanMicros).toList());
        System.out.printf(
            "once / without, through the runtime: %.3f  (cost %.1f %%; target: at most 5 %%)%n",
            runtimeRatio, 100 * (1 - runtimeRatio));
        System.out.printf(
            "the inbox entry, storage alone:      %.3f  (cost %.1f %%: the least once can cost on this engine)%n",
            aloneRatio, 100 * (1 - aloneRatio));
        System.out.printf(
            "repeat from inbox:   %.0f µs mean latency (%.3f of the first; target: below 1)%n",
            Figures.median(repeatMicros), Figures.median(repeatMicros) / firstMicros);
      } finally {
        if (engine.equals("postgres"))
          drop(
              url,
              plainNs + "_wallets",
              onceNs + "_wallets",
              aloneNs + "_plain",
              aloneNs + "_inboxed");
      }
    }
  }

  /** One credit of one record under one identity. */
  @FunctionalInterface
  interface Load {
    void credit(String record, String identity) throws Exception;
  }

  record Program(String name, Load load) {}

  /** Calls per second, the mean latency, and the CPU time the whole JVM spent per call. */
  record Result(double rate, double meanMicros, double cpuMicros) {}

  /** {@code calls} credits over {@code threads}, each on its own record under identity prefix-i. */
  private static Result run(Load load, int calls, int threads, String prefix) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicLong nanos = new AtomicLong();
    long cpu = Figures.cpuNanos();
    long start = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(
          pool.submit(
              () -> {
                for (int i = thread; i < calls; i += threads) {
                  String record = String.format("%08x%024x", prefix.hashCode(), i);
                  long s = System.nanoTime();
                  load.credit(record, prefix + "-" + i);
                  nanos.addAndGet(System.nanoTime() - s);
                }
                return null;
              }));
    }
    for (Future<?> f : done) f.get(30, TimeUnit.MINUTES);
    pool.shutdown();
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Result(
        calls / seconds, nanos.get() / 1e3 / calls, (Figures.cpuNanos() - cpu) / 1e3 / calls);
  }

  /**
   * What the storage is given for a credit that creates a wallet: the record at version 1 and, for
   * an inboxed credit, the answer under the call's identity with a fingerprint as long as the
   * runtime's (hex SHA-256).
   */
  private static void commit(Store store, String record, Optional<String> identity) {
    long now = System.currentTimeMillis();
    // the JSON text is written here, as the runtime writes it before the storage is called
    Json state = json(JSON.createObjectNode().put("balance", 1));
    // as the runtime writes one: the answer for an hour, the record that it was answered for 30
    // days
    Optional<InboxEntry> inbox =
        identity.map(
            id ->
                new InboxEntry(
                    id,
                    Optional.of(
                        json(
                            JSON.createObjectNode()
                                .put("id", record)
                                .put("VERSION", 1)
                                .put("balance", 1))),
                    now + 3_600_000,
                    Optional.of(HexFormat.of().formatHex(new byte[32])),
                    now,
                    now + 30L * 86_400_000,
                    Optional.of(record)));
    Outcome outcome =
        store.commit(
            new Write(0, new StoredRecord(record, 1, now, now, state), Optional.empty(), inbox));
    if (outcome != Outcome.COMMITTED)
      throw new IllegalStateException("record " + record + " not committed: " + outcome);
  }

  private static Storage open(String engine, Path state, Map<String, String> options) {
    for (StorageProvider provider : ServiceLoader.load(StorageProvider.class)) {
      if (provider.name().equals(engine)) return provider.open(new StorageSettings(state, options));
    }
    throw new IllegalStateException("no storage named " + engine + " on the class path");
  }

  private static Path context(String namespace, boolean once, String storage) throws IOException {
    Path dir = Files.createTempDirectory("toa-bench-" + namespace);
    Files.writeString(dir.resolve("context.toa.yaml"), "name: bench\n" + storage);
    Wallets.write(dir, namespace, once);
    return dir;
  }

  private static void drop(String url, String... schemas) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String schema : schemas) s.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
    }
  }

  private static Json json(ObjectNode value) {
    try {
      return new Json(JSON.writeValueAsString(value));
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
