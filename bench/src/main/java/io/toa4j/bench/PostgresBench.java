package io.toa4j.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code credit} with {@code once} on PostgreSQL through the runtime, against a program on plain
 * JDBC that issues the statements the runtime issues for it — the read joined to the inbox
 * look-up, then in one transaction the compare-and-swap and the inbox insert sent together —
 * through a HikariCP pool of the same size, with the same concurrency, in the same run, on tables
 * made alike ({@code LIKE ... INCLUDING ALL}).
 *
 * <p>Each thread credits its own wallet, so the compare-and-swap never conflicts and what is
 * measured is the path itself. Rounds alternate which program runs first; the median of the rounds'
 * throughput ratios is reported, with the latency percentiles of all rounds together.
 */
public final class PostgresBench {
  private static final int POOL = 10; // the pool size storage-postgres opens
  private static final ObjectMapper JSON = new ObjectMapper();

  private PostgresBench() {}

  public static void main(String[] args) throws Exception {
    int calls = Figures.intArg(args, "--calls", 6000);
    int threads = Figures.intArg(args, "--threads", 8);
    int rounds = Figures.intArg(args, "--rounds", 7);
    int warmup = Figures.intArg(args, "--warmup", 24000);
    String url = Figures.stringArg(args, "--url", System.getenv().getOrDefault("TOA_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test"));
    String user = Figures.stringArg(args, "--user", "postgres");
    byte[] random = new byte[4];
    new SecureRandom().nextBytes(random);
    String namespace = "bench" + HexFormat.of().formatHex(random);
    Path dir = Files.createTempDirectory("toa-bench-pg");
    Files.writeString(dir.resolve("context.toa.yaml"), "name: bench\nstorage:\n  engine: postgres\n  url: " + url + "\n");
    Wallets.write(dir, namespace, true);

    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername(user);
    config.setMaximumPoolSize(POOL);
    String runtimeSchema = "\"" + namespace + "_wallets\"";
    String rawSchema = "\"" + namespace + "_raw\"";
    try (HikariDataSource pool = new HikariDataSource(config); Toa app = Toa.builder().directory(dir).build()) {
      Raw raw = new Raw(pool, rawSchema);
      try {
        Load runtime = (wallet, identity) -> app.call(namespace + ".wallets.credit", Request.of(wallet, Map.of("amount", 1)), identity);
        run(runtime, threads, threads, "warm-runtime"); // creates the schema, then one wallet per thread
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          s.execute("CREATE SCHEMA " + rawSchema);
          s.execute("CREATE TABLE " + rawSchema + ".records (LIKE " + runtimeSchema + ".records INCLUDING ALL)");
          s.execute("CREATE TABLE " + rawSchema + ".inbox (LIKE " + runtimeSchema + ".inbox INCLUDING ALL)");
        }
        Load plain = raw::credit;
        run(plain, threads, threads, "warm-raw");
        // Until the JIT has compiled both paths, the compiler's own work is most of the CPU a call
        // costs, and it costs the longer path more: the rounds measure both programs warm.
        for (int done = 0, chunk = 0; done < warmup; done += calls, chunk++) {
          run(runtime, calls, threads, "warm-runtime-" + chunk);
          run(plain, calls, threads, "warm-raw-" + chunk);
        }

        List<Double> ratios = new ArrayList<>();
        List<Double> runtimeRates = new ArrayList<>();
        List<Double> rawRates = new ArrayList<>();
        List<Double> runtimeCpu = new ArrayList<>();
        List<Double> rawCpu = new ArrayList<>();
        List<long[]> runtimeLatencies = new ArrayList<>();
        List<long[]> rawLatencies = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
          Result viaRuntime = null;
          Result viaRaw = null;
          for (int turn = 0; turn < 2; turn++) {
            if ((round + turn) % 2 == 0) viaRuntime = run(runtime, calls, threads, "r" + round);
            else viaRaw = run(plain, calls, threads, "j" + round);
          }
          ratios.add(viaRuntime.rate() / viaRaw.rate());
          runtimeRates.add(viaRuntime.rate());
          rawRates.add(viaRaw.rate());
          runtimeCpu.add(viaRuntime.cpuMicros());
          rawCpu.add(viaRaw.cpuMicros());
          runtimeLatencies.add(viaRuntime.nanos());
          rawLatencies.add(viaRaw.nanos());
        }
        long[] r = Figures.sorted(concat(runtimeLatencies));
        long[] j = Figures.sorted(concat(rawLatencies));
        System.out.printf("PostgreSQL %s, %d threads, %d calls per round, %d rounds after %d calls each to warm up%n",
            url, threads, calls, rounds, warmup);
        System.out.printf("raw JDBC:      %6.0f calls/s  p50 %5.2f ms  p99 %5.2f ms  p99.9 %5.2f ms  JVM CPU %4.0f µs per call%n",
            Figures.median(rawRates), ms(j, 0.5), ms(j, 0.99), ms(j, 0.999), Figures.median(rawCpu));
        System.out.printf("runtime:       %6.0f calls/s  p50 %5.2f ms  p99 %5.2f ms  p99.9 %5.2f ms  JVM CPU %4.0f µs per call%n",
            Figures.median(runtimeRates), ms(r, 0.5), ms(r, 0.99), ms(r, 0.999), Figures.median(runtimeCpu));
        System.out.printf("runtime / raw: %.3f  (median of the rounds' throughput ratios; target: at least 0.8)%n", Figures.median(ratios));
        System.out.printf("p99 runtime / raw: %.2f%n", ms(r, 0.99) / ms(j, 0.99));
      } finally {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          s.execute("DROP SCHEMA IF EXISTS " + rawSchema + " CASCADE");
          s.execute("DROP SCHEMA IF EXISTS " + runtimeSchema + " CASCADE");
        }
      }
    }
  }

  /** One credit of one wallet under one identity. */
  @FunctionalInterface
  interface Load {
    void credit(String wallet, String identity) throws Exception;
  }

  /** Calls per second, each call's latency, and the CPU time the whole JVM spent per call. */
  record Result(double rate, long[] nanos, double cpuMicros) {}

  /** {@code calls} credits over {@code threads} threads, each thread on its own wallet. */
  private static Result run(Load load, int calls, int threads, String prefix) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long[] nanos = new long[calls];
    long cpu = Figures.cpuNanos();
    long start = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      String wallet = String.format("%032x", thread + 1);
      done.add(pool.submit(() -> {
        for (int i = thread; i < calls; i += threads) {
          long s = System.nanoTime();
          load.credit(wallet, prefix + "-" + i);
          nanos[i] = System.nanoTime() - s;
        }
        return null;
      }));
    }
    for (Future<?> f : done) f.get(30, TimeUnit.MINUTES);
    double seconds = (System.nanoTime() - start) / 1e9;
    pool.shutdown();
    return new Result(calls / seconds, nanos, (Figures.cpuNanos() - cpu) / 1e3 / calls);
  }

  /**
   * What the runtime does for a credit declared {@code once}, written by hand: read the record and
   * look the identity up in one query, then, in one transaction, send the compare-and-swap and the
   * inbox insert together and commit when both counted one row; again from the read when the
   * version moved.
   */
  private record Raw(HikariDataSource pool, String schema) {
    void credit(String wallet, String identity) throws SQLException, java.io.IOException {
      while (true) {
        long now = System.currentTimeMillis();
        long version = 0;
        long created = now;
        ObjectNode state = JSON.createObjectNode().put("balance", 0);
        try (Connection c = pool.getConnection();
            PreparedStatement s = c.prepareStatement("SELECT r.version, r.created, r.state, i.reply FROM (VALUES (1)) AS one"
                + " LEFT JOIN " + schema + ".records r ON r.id = ? LEFT JOIN " + schema + ".inbox i ON i.identity = ? AND i.expires > ?")) {
          s.setString(1, wallet);
          s.setString(2, identity);
          s.setLong(3, now);
          try (ResultSet r = s.executeQuery()) {
            r.next();
            if (r.getString(4) != null) return; // answered before
            if (r.getString(3) != null) {
              version = r.getLong(1);
              created = r.getLong(2);
              state = (ObjectNode) JSON.readTree(r.getString(3));
            }
          }
        }
        ObjectNode next = state.deepCopy().put("balance", state.path("balance").asLong() + 1);
        ObjectNode reply = JSON.createObjectNode().put("id", wallet).put("VERSION", version + 1).put("balance", next.get("balance").asLong());
        String record = version == 0
            ? "INSERT INTO " + schema + ".records (id, version, created, updated, state) VALUES (?, ?, ?, ?, ?::jsonb) ON CONFLICT (id) DO NOTHING"
            : "UPDATE " + schema + ".records SET version = ?, updated = ?, state = ?::jsonb WHERE id = ? AND version = ?";
        String remember = "INSERT INTO " + schema + ".inbox AS inbox (identity, reply, expires) VALUES (?, ?::jsonb, ?)"
            + " ON CONFLICT (identity) DO UPDATE SET reply = excluded.reply, expires = excluded.expires WHERE inbox.expires <= ?";
        try (Connection c = pool.getConnection()) {
          c.setAutoCommit(false);
          try (PreparedStatement s = c.prepareStatement(record + "; " + remember)) {
            int p = 1;
            if (version == 0) {
              s.setString(p++, wallet);
              s.setLong(p++, 1);
              s.setLong(p++, created);
              s.setLong(p++, now);
              s.setString(p++, JSON.writeValueAsString(next));
            } else {
              s.setLong(p++, version + 1);
              s.setLong(p++, now);
              s.setString(p++, JSON.writeValueAsString(next));
              s.setString(p++, wallet);
              s.setLong(p++, version);
            }
            s.setString(p++, identity);
            s.setString(p++, JSON.writeValueAsString(reply));
            s.setLong(p++, now + 3_600_000);
            s.setLong(p, now);
            s.execute();
            boolean moved = s.getUpdateCount() == 1;
            s.getMoreResults();
            if (moved && s.getUpdateCount() == 1) {
              c.commit();
              return;
            }
            c.rollback();
            if (moved) return; // a twin answered first
          } catch (SQLException e) {
            c.rollback();
            throw e;
          } finally {
            c.setAutoCommit(true);
          }
        }
      }
    }
  }

  private static long[] concat(List<long[]> parts) {
    return parts.stream().flatMapToLong(java.util.Arrays::stream).toArray();
  }

  private static double ms(long[] sorted, double q) {
    return Figures.percentile(sorted, q) / 1e6;
  }
}
