package io.toa4j.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code credit} with {@code once} on PostgreSQL through the runtime, against a program on plain
 * JDBC that issues the statements the runtime issues for it — the read joined to the inbox look-up,
 * then in one transaction the compare-and-swap and the inbox insert sent together — through a
 * HikariCP pool of the same size, with the same concurrency, in the same run, on tables made alike
 * ({@code LIKE ... INCLUDING ALL}).
 *
 * <p>By default each thread credits its own wallet, so the compare-and-swap never conflicts and
 * what is measured is the path itself. With {@code --wallets N} each call credits one of N wallets,
 * picked by a fixed hash of the call's number (the same sequence for both programs), so callers
 * meet on a record now and then and both programs retry from the read.
 *
 * <p>With {@code --event} every credit announces an event that a receiver of another component of
 * the context handles (an effect, {@link Wallets}): the runtime commits an outbox row with the
 * record and the inbox row, publishes it on the context's bus after the commit, marks it published,
 * and delivers it. A round of the runtime ends only when every event of the round was published and
 * handled ({@code admin().settle} empty after the last call, its quiet period included). The
 * program by hand inserts the same outbox row in the same transaction and does nothing after the
 * commit: the baseline of toa4j issue 21. With {@code --bus rabbitmq} a third program runs in the
 * same rounds: the program by hand followed by a relay and a receiver of its own on the same broker
 * ({@link ByHandRelay}), so that what the broker itself costs an event is measured beside the
 * runtime, as the floor under it on that bus.
 *
 * <p>Rounds rotate which program runs first; the median of the rounds' throughput ratios is
 * reported, with the latency percentiles of all rounds together.
 */
public final class PostgresBench {
  private static final int POOL = 10; // the pool size storage-postgres opens
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration SETTLE = Duration.ofMinutes(5);

  private PostgresBench() {}

  public static void main(String[] args) throws Exception {
    int calls = Figures.intArg(args, "--calls", 6000);
    int threads = Figures.intArg(args, "--threads", 8);
    int rounds = Figures.intArg(args, "--rounds", 7);
    int warmup = Figures.intArg(args, "--warmup", 24000);
    int walletCount = Figures.intArg(args, "--wallets", 0); // 0: one per thread
    boolean event = Figures.flag(args, "--event");
    boolean turns = !Figures.flag(args, "--no-turns");
    long backlog = Figures.intArg(args, "--backlog", (int) Options.BACKLOG);
    String bus = Figures.stringArg(args, "--bus", "embedded");
    String storage = Figures.stringArg(args, "--storage", "postgres");
    if (!storage.equals("postgres") && !storage.equals("mariadb")) {
      throw new IllegalArgumentException(
          "--storage " + storage + ": the storage is postgres or mariadb");
    }
    boolean maria = storage.equals("mariadb");
    String url =
        Figures.stringArg(
            args,
            "--url",
            maria
                ? System.getenv()
                    .getOrDefault("TOA_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test?user=root")
                : System.getenv()
                    .getOrDefault("TOA_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test"));
    String user = Figures.stringArg(args, "--user", "postgres");
    String amqp = Figures.stringArg(args, "--amqp", "amqp://guest:guest@127.0.0.1:5672");
    if (!bus.equals("embedded") && !bus.equals("rabbitmq")) {
      throw new IllegalArgumentException("--bus " + bus + ": the bus is embedded or rabbitmq");
    }
    if (walletCount < 0)
      throw new IllegalArgumentException("--wallets " + walletCount + ": at least 1");
    Spread spread = walletCount == 0 ? new Spread(threads, false) : new Spread(walletCount, true);
    byte[] random = new byte[4];
    new SecureRandom().nextBytes(random);
    String namespace = "bench" + HexFormat.of().formatHex(random);
    String virtualHost = "toa_bench_" + namespace;
    Path dir = Files.createTempDirectory("toa-bench-pg");
    String context = "name: bench\nstorage:\n  engine: " + storage + "\n  url: " + url + "\n";
    if (bus.equals("rabbitmq")) {
      Broker.createVirtualHost(virtualHost);
      context += "bus:\n  engine: rabbitmq\n  url: " + amqp + "/" + virtualHost + "\n";
    }
    Files.writeString(dir.resolve("context.toa.yaml"), context);
    Wallets.write(dir, namespace, true, event);

    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    if (!maria) config.setUsername(user); // MariaDB's URL names its user
    config.setMaximumPoolSize(POOL);
    String runtimeSchema = "\"" + namespace + "_wallets\"";
    String rawSchema = "\"" + namespace + "_raw\"";
    try (HikariDataSource pool = new HikariDataSource(config);
        Toa app =
            Toa.builder()
                .directory(dir)
                .options(options(turns).withBacklog(backlog, Options.BACKLOG_WAIT))
                .build()) {
      // the relay by hand is written for PostgreSQL's tables
      boolean relayed = event && bus.equals("rabbitmq") && !maria;
      String relayedSchema = "\"" + namespace + "_relayed\"";
      ByHandRelay relay = null;
      try {
        Program runtime =
            new Program() {
              @Override
              public void credit(String wallet, String identity) {
                app.call(
                    namespace + ".wallets.credit",
                    Request.of(wallet, Map.of("amount", 1)),
                    identity);
              }

              @Override
              public void settle() {
                if (event)
                  app.admin()
                      .settle(SETTLE)
                      .ifPresent(
                          pending -> {
                            throw new IllegalStateException(
                                "the runtime's events did not settle within "
                                    + SETTLE
                                    + ": "
                                    + pending);
                          });
              }
            };
        int first = Math.max(threads, spread.wallets());
        run(runtime, first, threads, spread, "warm-runtime"); // creates the schema and the wallets
        List<String> schemas = relayed ? List.of(rawSchema, relayedSchema) : List.of(rawSchema);
        try (Connection c = pool.getConnection();
            Statement s = c.createStatement()) {
          for (String table :
              maria
                  ? (event ? List.of("records", "inbox", "outbox") : List.of("records", "inbox"))
                  : List.<String>of()) {
            s.execute(
                "CREATE TABLE `"
                    + namespace
                    + "_raw_"
                    + table
                    + "` LIKE `"
                    + namespace
                    + "_wallets_"
                    + table
                    + "`");
          }
          for (String schema : maria ? List.<String>of() : schemas) {
            s.execute("CREATE SCHEMA " + schema);
            for (String table :
                event ? List.of("records", "inbox", "outbox") : List.of("records", "inbox")) {
              s.execute(
                  "CREATE TABLE "
                      + schema
                      + "."
                      + table
                      + " (LIKE "
                      + runtimeSchema
                      + "."
                      + table
                      + " INCLUDING ALL)");
            }
          }
        }
        List<Contender> contenders = new ArrayList<>();
        contenders.add(new Contender("runtime", "r", runtime));
        contenders.add(
            new Contender(
                "raw JDBC",
                "j",
                maria
                    ? new MariadbRaw(pool, namespace + "_raw", event)::credit
                    : new Raw(pool, rawSchema, event)::credit));
        if (relayed) {
          ByHandRelay by = relay = new ByHandRelay(pool, relayedSchema, amqp + "/" + virtualHost);
          Raw relaying = new Raw(pool, relayedSchema, event, by);
          contenders.add(
              new Contender(
                  "raw + relay",
                  "h",
                  new Program() {
                    @Override
                    public void credit(String wallet, String identity) throws Exception {
                      relaying.credit(wallet, identity);
                    }

                    @Override
                    public void settle() {
                      by.settle(SETTLE);
                    }
                  }));
        }
        for (Contender contender : contenders.subList(1, contenders.size())) {
          run(contender.program(), first, threads, spread, "warm-" + contender.prefix());
        }
        // Until the JIT has compiled both paths, the compiler's own work is most of the CPU a call
        // costs, and it costs the longer path more: the rounds measure every program warm.
        for (int done = 0, chunk = 0; done < warmup; done += calls, chunk++) {
          for (Contender contender : contenders)
            run(
                contender.program(),
                calls,
                threads,
                spread,
                "warm-" + contender.prefix() + "-" + chunk);
        }

        for (int round = 0; round < rounds; round++) {
          for (int turn = 0;
              turn < contenders.size();
              turn++) { // each round another program goes first
            Contender contender = contenders.get((round + turn) % contenders.size());
            contender
                .results()
                .add(run(contender.program(), calls, threads, spread, contender.prefix() + round));
          }
        }
        if (event) {
          if (!app.admin().parked().isEmpty()) {
            throw new IllegalStateException(
                app.admin().parked().size() + " event(s) parked: not every event was handled");
          }
          if (app.admin().backlog() != 0)
            throw new IllegalStateException(
                app.admin().backlog() + " outbox entries left unpublished");
        }
        if (relayed) {
          try (Connection c = pool.getConnection();
              Statement s = c.createStatement();
              ResultSet left =
                  s.executeQuery(
                      "SELECT count(*) FROM "
                          + relayedSchema
                          + ".outbox WHERE published IS NULL")) {
            left.next();
            if (left.getLong(1) != 0)
              throw new IllegalStateException(
                  "by hand: " + left.getLong(1) + " outbox entries left unpublished");
          }
        }
        System.out.printf(
            "%s %s, %d threads over %s, %d calls per round, %d rounds after %d calls each to warm up%n",
            maria ? "MariaDB" : "PostgreSQL",
            url,
            threads,
            spread.describe(),
            calls,
            rounds,
            warmup);
        System.out.println(
            turns
                ? "calls of the runtime on one record take turns"
                : "calls of the runtime on one record race (--no-turns)");
        System.out.println(
            event
                ? "credit with once and an event delivered to a receiver (an effect) over the "
                    + bus
                    + " bus;"
                    + " a round of the runtime ends when every event is published and handled,"
                    + " the program by hand commits the outbox row and stops there"
                : "credit with once, no event");
        if (relayed) {
          System.out.println(
              "raw + relay: the program by hand, then its own relay and receiver on the same broker (publish"
                  + " persistent in batches, one wait for confirms and one published mark per batch, ack per message):"
                  + " the broker's price, the floor under the runtime on this bus");
        }
        Contender viaRuntime = contenders.get(0);
        Contender viaRaw = contenders.get(1);
        List<Contender> reported =
            new ArrayList<>(List.of(viaRaw, viaRuntime)); // the baseline first, as before
        reported.addAll(contenders.subList(2, contenders.size()));
        for (Contender contender : reported) {
          long[] nanos =
              Figures.sorted(concat(contender.results().stream().map(Result::nanos).toList()));
          System.out.printf(
              "%-13s %6.0f calls/s  p50 %5.2f ms  p99 %5.2f ms  p99.9 %5.2f ms  JVM CPU %4.0f µs per call, %4.0f on the callers' threads%n",
              contender.name() + ":",
              contender.median(Result::rate),
              ms(nanos, 0.5),
              ms(nanos, 0.99),
              ms(nanos, 0.999),
              contender.median(Result::cpuMicros),
              contender.median(Result::callerCpuMicros));
        }
        System.out.printf(
            "JVM CPU per call, runtime / raw: %.2f× in all, %.2f× on the callers' threads (target 6: at most 1.5×)%n",
            viaRuntime.median(Result::cpuMicros) / viaRaw.median(Result::cpuMicros),
            viaRuntime.median(Result::callerCpuMicros) / viaRaw.median(Result::callerCpuMicros));
        if (event) {
          System.out.printf(
              "runtime settled %.0f ms after its last call (median of the rounds; settle's quiet period included)%n",
              viaRuntime.median(Result::drainMillis));
        }
        if (Figures.machineCpuNanos() >= 0) {
          System.out.printf(
              "machine CPU (every process: this JVM, the database, the broker) per call: raw JDBC %.0f µs, runtime %.0f µs (%.2f×)%n",
              viaRaw.median(Result::machineMicros),
              viaRuntime.median(Result::machineMicros),
              viaRuntime.median(Result::machineMicros) / viaRaw.median(Result::machineMicros));
          if (relayed) {
            System.out.printf(
                "machine CPU per call, raw + relay: %.0f µs (%.2f× raw JDBC)%n",
                contenders.get(2).median(Result::machineMicros),
                contenders.get(2).median(Result::machineMicros)
                    / viaRaw.median(Result::machineMicros));
          }
        }
        System.out.printf(
            "runtime / raw: %.3f  (median of the rounds' throughput ratios; target: at least 0.8)%n",
            viaRuntime.ratio(viaRaw));
        if (relayed) {
          System.out.printf(
              "raw + relay / raw: %.3f  (what the broker leaves of the program by hand)%n",
              contenders.get(2).ratio(viaRaw));
          System.out.printf("runtime / raw + relay: %.3f%n", viaRuntime.ratio(contenders.get(2)));
        }
        long[] r =
            Figures.sorted(concat(viaRuntime.results().stream().map(Result::nanos).toList()));
        long[] j = Figures.sorted(concat(viaRaw.results().stream().map(Result::nanos).toList()));
        System.out.printf("p99 runtime / raw: %.2f%n", ms(r, 0.99) / ms(j, 0.99));
      } finally {
        if (relay != null) relay.close();
        try (Connection c = pool.getConnection();
            Statement s = c.createStatement()) {
          if (maria) {
            List<String> tables = new ArrayList<>();
            try (ResultSet r =
                s.executeQuery(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
                        + " AND table_name LIKE '"
                        + namespace
                        + "\\_%'")) {
              while (r.next()) tables.add(r.getString(1));
            }
            for (String table : tables) s.execute("DROP TABLE IF EXISTS `" + table + "`");
          } else {
            s.execute("DROP SCHEMA IF EXISTS " + rawSchema + " CASCADE");
            s.execute("DROP SCHEMA IF EXISTS " + relayedSchema + " CASCADE");
            s.execute("DROP SCHEMA IF EXISTS " + runtimeSchema + " CASCADE");
          }
        }
      }
    } finally {
      if (bus.equals("rabbitmq")) Broker.deleteVirtualHost(virtualHost);
    }
  }

  /**
   * One of the two programs: credits one wallet under one identity, and says when its work is done.
   */
  @FunctionalInterface
  interface Program {
    void credit(String wallet, String identity) throws Exception;

    /** Returns once what the round's calls caused is done; the round's time includes it. */
    default void settle() {}
  }

  /**
   * A program in the race, its name in the report, the prefix of its identities and its rounds'
   * results.
   */
  record Contender(String name, String prefix, Program program, List<Result> results) {
    Contender(String name, String prefix, Program program) {
      this(name, prefix, program, new ArrayList<>());
    }

    double median(java.util.function.ToDoubleFunction<Result> figure) {
      return Figures.median(results.stream().map(figure::applyAsDouble).toList());
    }

    /**
     * The median of the rounds' ratios of this program's throughput to another's, round by round.
     */
    double ratio(Contender other) {
      List<Double> ratios = new ArrayList<>();
      for (int i = 0; i < results.size(); i++)
        ratios.add(results.get(i).rate() / other.results.get(i).rate());
      return Figures.median(ratios);
    }
  }

  /**
   * Which wallet a call credits: the caller's own ({@code shared} false, one wallet per thread), or
   * one of {@code wallets} picked by a fixed hash of the call's number.
   */
  record Spread(int wallets, boolean shared) {
    int wallet(int thread, int call) {
      if (!shared) return thread;
      long z =
          (call + 1)
              * 0x9E3779B97F4A7C15L; // SplitMix64's finaliser: calls scatter, the same way every
      // run
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return (int) Long.remainderUnsigned(z ^ (z >>> 31), wallets);
    }

    String describe() {
      return shared ? wallets + " wallets (each call picks one)" : "their own wallet each";
    }
  }

  /**
   * Calls per second, each call's latency, the CPU time the whole JVM spent per call, the part of
   * it spent on the callers' own threads (the credit itself, without the runtime's publishing and
   * delivering of its event on threads of its own, the JIT and the collector), and how long the
   * program took to settle after its last call.
   */
  record Result(
      double rate,
      long[] nanos,
      double cpuMicros,
      double callerCpuMicros,
      double drainMillis,
      double machineMicros) {}

  /**
   * The runtime's options: calls on one record take turns unless {@code --no-turns} (they race as
   * two processes' do).
   */
  private static Options options(boolean turns) {
    return turns ? Options.defaults() : Options.defaults().withTurnWait(Duration.ZERO);
  }

  /**
   * {@code calls} credits over {@code threads} threads, then the program's settling, timed
   * together.
   */
  static Result run(Program program, int calls, int threads, Spread spread, String prefix)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    long[] nanos = new long[calls];
    String[] wallets = new String[spread.wallets()];
    for (int w = 0; w < wallets.length; w++) wallets[w] = String.format("%032x", w + 1);
    long cpu = Figures.cpuNanos();
    long machine = Figures.machineCpuNanos();
    long start = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    AtomicLong callerCpu = new AtomicLong();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(
          pool.submit(
              () -> {
                long mine = Figures.threadCpuNanos();
                for (int i = thread; i < calls; i += threads) {
                  String wallet = wallets[spread.wallet(thread, i)];
                  long s = System.nanoTime();
                  program.credit(wallet, prefix + "-" + i);
                  nanos[i] = System.nanoTime() - s;
                }
                callerCpu.addAndGet(Figures.threadCpuNanos() - mine);
                return null;
              }));
    }
    for (Future<?> f : done) f.get(30, TimeUnit.MINUTES);
    long called = System.nanoTime();
    program.settle();
    long end = System.nanoTime();
    pool.shutdown();
    return new Result(
        calls / ((end - start) / 1e9),
        nanos,
        (Figures.cpuNanos() - cpu) / 1e3 / calls,
        callerCpu.get() / 1e3 / calls,
        (end - called) / 1e6,
        (Figures.machineCpuNanos() - machine) / 1e3 / calls);
  }

  /**
   * What the runtime does for a credit declared {@code once}, written by hand: read the record and
   * look the identity up in one query, then, in one transaction, send the compare-and-swap, the
   * inbox insert and (with an event) the outbox insert together and commit when the first two
   * counted one row; again from the read when the version moved (or when a twin under the same
   * identity committed first, to read its answer). Nothing happens after the commit, unless a relay
   * is given: then the outbox row's id and the event's body are handed to it. Answers the reply the
   * inbox keeps: the wallet as the call left it.
   */
  record Raw(HikariDataSource pool, String schema, boolean event, ByHandRelay relay) {
    private static final HexFormat HEX = HexFormat.of();

    Raw(HikariDataSource pool, String schema, boolean event) {
      this(pool, schema, event, null);
    }

    String credit(String wallet, String identity) throws SQLException, java.io.IOException {
      while (true) {
        long now = System.currentTimeMillis();
        long version = 0;
        long created = now;
        long updated = now;
        ObjectNode state = JSON.createObjectNode().put("balance", 0);
        try (Connection c = pool.getConnection();
            PreparedStatement s =
                c.prepareStatement(
                    "SELECT r.version, r.created, r.state, i.reply, r.updated FROM (VALUES (1)) AS one"
                        + " LEFT JOIN "
                        + schema
                        + ".records r ON r.id = ? LEFT JOIN "
                        + schema
                        + ".inbox i ON i.identity = ? AND i.forgotten > ?")) {
          s.setString(1, wallet);
          s.setString(2, identity);
          s.setLong(3, now);
          try (ResultSet r = s.executeQuery()) {
            r.next();
            if (r.getString(4) != null) return r.getString(4); // answered before
            if (r.getString(3) != null) {
              version = r.getLong(1);
              created = r.getLong(2);
              updated = r.getLong(5);
              state = (ObjectNode) JSON.readTree(r.getString(3));
            }
          }
        }
        ObjectNode next = state.deepCopy().put("balance", state.path("balance").asLong() + 1);
        ObjectNode reply =
            JSON.createObjectNode()
                .put("id", wallet)
                .put("VERSION", version + 1)
                .put("balance", next.get("balance").asLong());
        String answer = JSON.writeValueAsString(reply);
        String record =
            version == 0
                ? "INSERT INTO "
                    + schema
                    + ".records (id, version, created, updated, state) VALUES (?, ?, ?, ?, ?::jsonb) ON CONFLICT (id) DO NOTHING"
                : "UPDATE "
                    + schema
                    + ".records SET version = ?, updated = ?, state = ?::jsonb WHERE id = ? AND version = ?";
        String remember =
            "INSERT INTO "
                + schema
                + ".inbox AS inbox (identity, reply, expires, fingerprint, answered, forgotten, record, due)"
                + " VALUES (?, ?::jsonb, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (identity) DO UPDATE SET reply = excluded.reply, expires = excluded.expires,"
                + " fingerprint = excluded.fingerprint, answered = excluded.answered, forgotten = excluded.forgotten,"
                + " record = excluded.record, due = excluded.due"
                + " WHERE inbox.forgotten <= ?";
        String enqueue =
            "INSERT INTO "
                + schema
                + ".outbox (id, created, change, claimed_until, tasks, trace)"
                + " VALUES (?, ?, ?::jsonb, ?, ?::jsonb, ?::jsonb)";
        String entry = null;
        ObjectNode announced = null;
        try (Connection c = pool.getConnection()) {
          c.setAutoCommit(false);
          // auto-commit comes back only once the transaction ended (see MariadbRaw)
          boolean ended = false;
          try (PreparedStatement s =
              c.prepareStatement(record + "; " + remember + (event ? "; " + enqueue : ""))) {
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
            long expires = now + 3_600_000;
            s.setString(p++, identity);
            s.setString(p++, answer);
            s.setLong(p++, expires);
            s.setString(p++, fingerprint());
            s.setLong(p++, now);
            s.setLong(p++, expires);
            s.setString(p++, wallet);
            s.setLong(p++, expires);
            s.setLong(p++, now);
            if (event) {
              JsonNode origin =
                  version == 0
                      ? NullNode.getInstance()
                      : view(wallet, version, created, updated, state);
              ObjectNode change = JSON.createObjectNode();
              change.set("origin", origin);
              announced = view(wallet, version + 1, created, now, next);
              change.set("state", announced);
              change.set("input", JSON.createObjectNode().put("amount", 1));
              change.set("trailers", JSON.createObjectNode());
              byte[] random = new byte[10];
              ThreadLocalRandom.current().nextBytes(random);
              entry = String.format("%012x", now & 0xffffffffffffL) + HEX.formatHex(random);
              s.setString(p++, entry);
              s.setLong(p++, now);
              s.setString(p++, JSON.writeValueAsString(change));
              s.setLong(p++, now + 10_000);
              s.setString(p++, null);
              s.setString(p, null);
            }
            s.execute();
            boolean moved = s.getUpdateCount() == 1;
            s.getMoreResults();
            if (moved && s.getUpdateCount() == 1) {
              c.commit();
              ended = true;
              if (relay != null) relay.committed(entry, JSON.writeValueAsBytes(announced));
              return answer;
            }
            c.rollback();
            ended = true;
            // moved, the inbox row not inserted: a twin answered first, and the read finds its
            // answer
          } catch (SQLException e) {
            c.rollback();
            ended = true;
            throw e;
          } finally {
            if (ended) c.setAutoCommit(true);
          }
        }
      }
    }

    /** A wallet as an event carries it: its fields and its system fields. */
    static ObjectNode view(
        String wallet, long version, long created, long updated, ObjectNode state) {
      ObjectNode view =
          JSON.createObjectNode()
              .put("id", wallet)
              .put("VERSION", version)
              .put("CREATED", created)
              .put("UPDATED", updated);
      view.setAll(state);
      return view;
    }

    /** What the runtime keeps to tell a repeat from another call under the same identity. */
    static String fingerprint() {
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        return HEX.formatHex(
            sha.digest(
                "{\"operation\":\"credit\",\"query\":null,\"input\":{\"amount\":1}}"
                    .getBytes(StandardCharsets.UTF_8)));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("SHA-256 is required of every JVM", e);
      }
    }
  }

  static long[] concat(List<long[]> parts) {
    return parts.stream().flatMapToLong(java.util.Arrays::stream).toArray();
  }

  static double ms(long[] sorted, double q) {
    return Figures.percentile(sorted, q) / 1e6;
  }
}
