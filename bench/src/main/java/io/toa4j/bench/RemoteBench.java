package io.toa4j.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A call carried over RabbitMQ to a component that another process hosts on PostgreSQL, through the
 * runtime, against a request and reply written by hand with amqp-client, in the same run, on the
 * same servers, on tables made alike: toa4j issue 21, target 3.
 *
 * <p>Both servers live in one other JVM, started by this one (its {@code --host} mode): a {@link
 * Toa} that hosts {@code <namespace>.wallets} on PostgreSQL with the RabbitMQ bus, as {@code toa
 * run <namespace>.wallets} does, and the program by hand's {@link Server}. The callers live here: a
 * {@linkplain io.toa4j.runtime.ToaBuilder#connect() connected} Toa that hosts nothing, as {@code
 * toa call} does, whose calls take the runtime's own path over the bus (the call queue {@code
 * <namespace>.wallets..calls}, a reply queue of its bus), and the program by hand's {@link Client}.
 * A process of its own rather than a second Toa in this JVM: so that no call can be run in the
 * caller's process, each side has the JIT, collector and threads a deployment gives it, and the CPU
 * of each side is measured apart. Each program's servers sit idle while the other one runs.
 *
 * <p>The program by hand: the client publishes each request persistent to a durable queue, on one
 * channel in confirm mode whose confirms are handled as they come (a window of every call in
 * flight, never one wait per message), with direct reply-to ({@code amq.rabbitmq.reply-to},
 * consumed on that channel) for the answer; each caller thread waits for its request's confirm and
 * its answer. The server consumes the queue with manual acknowledgements and a prefetch window as
 * wide as the runtime's (16), runs each request on a pool as wide as the window, in the transaction
 * of {@link PostgresBench.Raw} (the read joined to the inbox look-up, then the compare-and-swap of
 * the record and the inbox row in one transaction; on a lost swap, again from the read), through a
 * HikariCP pool as large as the runtime's, publishes the answer to the request's reply-to and then
 * acknowledges the request, both on the consuming channel, in that order.
 *
 * <p>Credit with {@code once}, no event. Calls pick one of {@code --wallets} wallets as in {@link
 * PostgresBench}; rounds alternate which program runs first; the median of the rounds' throughput
 * ratios is reported, with the latency percentiles of all rounds together, the CPU of each JVM per
 * call and the machine's.
 */
public final class RemoteBench {
  private static final int POOL = 10; // the pool size storage-postgres opens
  private static final int PREFETCH = 16; // the RabbitMQ bus's prefetch per subscription
  private static final String REQUESTS = "bench.credits";
  private static final String DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";
  private static final String READY = "ready";
  private static final Duration BOOT = Duration.ofMinutes(3);
  private static final Duration TIMEOUT = Options.CALL_TIMEOUT;
  private static final ObjectMapper JSON = new ObjectMapper();

  private RemoteBench() {}

  public static void main(String[] args) throws Exception {
    if (Figures.flag(args, "--host")) {
      host(args);
      return;
    }
    int calls = Figures.intArg(args, "--calls", 3000);
    int threads = Figures.intArg(args, "--threads", 16);
    int rounds = Figures.intArg(args, "--rounds", 5);
    int warmup = Figures.intArg(args, "--warmup", 40000);
    int walletCount = Figures.intArg(args, "--wallets", 64); // 0: one per thread
    String url =
        Figures.stringArg(
            args,
            "--url",
            System.getenv()
                .getOrDefault("TOA_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test"));
    String user = Figures.stringArg(args, "--user", "postgres");
    String amqp = Figures.stringArg(args, "--amqp", "amqp://guest:guest@127.0.0.1:5672");
    if (walletCount < 0)
      throw new IllegalArgumentException(
          "--wallets " + walletCount + ": at least 1, or 0 for one per thread");
    PostgresBench.Spread spread =
        walletCount == 0
            ? new PostgresBench.Spread(threads, false)
            : new PostgresBench.Spread(walletCount, true);
    byte[] random = new byte[4];
    new SecureRandom().nextBytes(random);
    String namespace = "bench" + HexFormat.of().formatHex(random);
    String virtualHost = "toa_bench_" + namespace;
    String broker = amqp + "/" + virtualHost;
    String runtimeSchema = "\"" + namespace + "_wallets\"";
    String rawSchema = "\"" + namespace + "_raw\"";
    Path dir = Files.createTempDirectory("toa-bench-remote");
    Files.writeString(
        dir.resolve("context.toa.yaml"),
        "name: bench\nstorage:\n  engine: postgres\n  url: "
            + url
            + "\nbus:\n  engine: rabbitmq\n  url: "
            + broker
            + "\n");
    Wallets.write(dir, namespace, true, false);
    Broker.createVirtualHost(virtualHost);
    Host host = null;
    try {
      host = Host.start(dir, namespace, url, user, broker, rawSchema);
      try (Toa caller = Toa.builder().directory(dir).connect();
          Client client = new Client(broker)) {
        PostgresBench.Program runtime =
            (wallet, identity) ->
                caller.call(
                    namespace + ".wallets.credit",
                    Request.of(wallet, Map.of("amount", 1)),
                    identity);
        PostgresBench.Program plain = client::credit;
        int first = Math.max(threads, spread.wallets());
        int made = 0;
        run(
            runtime,
            host,
            first,
            threads,
            spread,
            "warm-runtime"); // the host made the schema when it started; this, the wallets
        made += first;
        try (java.sql.Connection c = DriverManager.getConnection(url, user, null);
            Statement s = c.createStatement()) {
          s.execute("CREATE SCHEMA " + rawSchema);
          for (String table : List.of("records", "inbox")) {
            s.execute(
                "CREATE TABLE "
                    + rawSchema
                    + "."
                    + table
                    + " (LIKE "
                    + runtimeSchema
                    + "."
                    + table
                    + " INCLUDING ALL)");
          }
        }
        run(plain, host, first, threads, spread, "warm-raw");
        // Until the JIT has compiled both paths, on both sides, its own work is most of the CPU a
        // call costs: the rounds measure both programs warm.
        for (int done = 0, chunk = 0; done < warmup; done += calls, chunk++) {
          run(runtime, host, calls, threads, spread, "warm-runtime-" + chunk);
          run(plain, host, calls, threads, spread, "warm-raw-" + chunk);
          made += calls;
        }

        List<Double> ratios = new ArrayList<>();
        List<Figure> viaRuntime = new ArrayList<>();
        List<Figure> viaRaw = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
          Figure r = null;
          Figure j = null;
          for (int turn = 0; turn < 2; turn++) {
            if ((round + turn) % 2 == 0)
              r = run(runtime, host, calls, threads, spread, "r" + round);
            else j = run(plain, host, calls, threads, spread, "j" + round);
          }
          ratios.add(r.rate() / j.rate());
          viaRuntime.add(r);
          viaRaw.add(j);
          made += calls;
        }
        long runtimeCredits = credited(url, user, runtimeSchema);
        long rawCredits = credited(url, user, rawSchema);
        if (runtimeCredits != made || rawCredits != made) {
          throw new IllegalStateException(
              "each program made "
                  + made
                  + " credits; the runtime's wallets hold "
                  + runtimeCredits
                  + ", the program by hand's "
                  + rawCredits);
        }

        System.out.printf(
            "PostgreSQL %s, RabbitMQ %s, %d caller threads over %s, %d calls per round, %d rounds after %d calls each to warm up%n",
            url, amqp, threads, spread.describe(), calls, rounds, warmup);
        System.out.println(
            "credit with once, no event; the callers in this JVM, the hosts in another (pid "
                + host.pid()
                + ")");
        System.out.println(
            "every credit applied once: each program's wallets hold the "
                + made
                + " credits it made");
        report("by hand:", viaRaw);
        report("runtime:", viaRuntime);
        if (Figures.machineCpuNanos() >= 0) {
          double raw = median(viaRaw, Figure::machineMicros);
          double rt = median(viaRuntime, Figure::machineMicros);
          System.out.printf(
              "machine CPU (every process: both JVMs, the database, the broker) per call: by hand %.0f µs, runtime %.0f µs (%.2f×)%n",
              raw, rt, rt / raw);
        }
        System.out.printf(
            "runtime / by hand: %.3f  (median of the rounds' throughput ratios; target: at least 0.9)%n",
            Figures.median(ratios));
        System.out.printf(
            "p99 runtime / by hand: %.2f%n",
            PostgresBench.ms(latencies(viaRuntime), 0.99)
                / PostgresBench.ms(latencies(viaRaw), 0.99));
      }
    } finally {
      try {
        if (host != null) host.close();
      } finally {
        try (java.sql.Connection c = DriverManager.getConnection(url, user, null);
            Statement s = c.createStatement()) {
          s.execute("DROP SCHEMA IF EXISTS " + rawSchema + " CASCADE");
          s.execute("DROP SCHEMA IF EXISTS " + runtimeSchema + " CASCADE");
        } finally {
          Broker.deleteVirtualHost(virtualHost);
        }
      }
    }
  }

  /** A round of one program, with the CPU time the host's JVM spent in it per call. */
  record Figure(PostgresBench.Result result, double hostCpuMicros) {
    double rate() {
      return result.rate();
    }

    double machineMicros() {
      return result.machineMicros();
    }
  }

  private static Figure run(
      PostgresBench.Program program,
      Host host,
      int calls,
      int threads,
      PostgresBench.Spread spread,
      String prefix)
      throws Exception {
    long cpu = host.cpuNanos();
    PostgresBench.Result result = PostgresBench.run(program, calls, threads, spread, prefix);
    return new Figure(result, (host.cpuNanos() - cpu) / 1e3 / calls);
  }

  private static void report(String name, List<Figure> figures) {
    long[] l = latencies(figures);
    double caller = median(figures, f -> f.result().cpuMicros());
    double host = median(figures, Figure::hostCpuMicros);
    System.out.printf(
        "%-9s %6.0f calls/s  p50 %5.2f ms  p99 %5.2f ms  p99.9 %5.2f ms  CPU per call: caller JVM %4.0f µs, host JVM %4.0f µs%n",
        name,
        median(figures, Figure::rate),
        PostgresBench.ms(l, 0.5),
        PostgresBench.ms(l, 0.99),
        PostgresBench.ms(l, 0.999),
        caller,
        host);
  }

  private static double median(
      List<Figure> figures, java.util.function.ToDoubleFunction<Figure> value) {
    return Figures.median(figures.stream().map(value::applyAsDouble).toList());
  }

  private static long[] latencies(List<Figure> figures) {
    return Figures.sorted(
        PostgresBench.concat(figures.stream().map(f -> f.result().nanos()).toList()));
  }

  /** The sum of the balances of a schema's wallets: every credit applied once adds one. */
  private static long credited(String url, String user, String schema) throws Exception {
    try (java.sql.Connection c = DriverManager.getConnection(url, user, null);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT coalesce(sum((state->>'balance')::bigint), 0) FROM "
                    + schema
                    + ".records")) {
      r.next();
      return r.getLong(1);
    }
  }

  /**
   * The other JVM: started with this class's {@code --host} mode and the same class path, ready
   * once it printed {@value #READY}, stopped by closing its standard input (so it also stops when
   * this JVM dies).
   */
  private record Host(Process process) implements AutoCloseable {
    static Host start(
        Path dir, String namespace, String url, String user, String broker, String rawSchema)
        throws Exception {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process process =
          new ProcessBuilder(
                  java,
                  "-cp",
                  System.getProperty("java.class.path"),
                  RemoteBench.class.getName(),
                  "--host",
                  "--dir",
                  dir.toString(),
                  "--namespace",
                  namespace,
                  "--url",
                  url,
                  "--user",
                  user,
                  "--amqp",
                  broker,
                  "--schema",
                  rawSchema)
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      Host host = new Host(process);
      CompletableFuture<Boolean> ready = new CompletableFuture<>();
      Thread reader =
          new Thread(
              () -> { // says when the host is ready, and passes on whatever else it prints
                try (BufferedReader out =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line; (line = out.readLine()) != null; ) {
                    if (line.equals(READY)) ready.complete(true);
                    else System.err.println("host: " + line);
                  }
                } catch (IOException e) {
                  // the host is gone: said below
                }
                ready.complete(false);
              },
              "host-output");
      reader.setDaemon(true);
      reader.start();
      try {
        if (!ready.get(BOOT.toMillis(), TimeUnit.MILLISECONDS)) {
          throw new IllegalStateException(
              "the host process stopped before it was ready (exit code "
                  + process.waitFor()
                  + "; its errors are above)");
        }
      } catch (TimeoutException | RuntimeException e) {
        host.close();
        throw e instanceof TimeoutException
            ? new IllegalStateException("the host process was not ready within " + BOOT, e)
            : e;
      }
      return host;
    }

    long pid() {
      return process.pid();
    }

    /**
     * The CPU time the host's JVM has used (in ticks of 10 ms on Linux, so only for whole rounds).
     */
    long cpuNanos() {
      return process
          .info()
          .totalCpuDuration()
          .orElseThrow(() -> new IllegalStateException("the host's CPU time is unknown"))
          .toNanos();
    }

    @Override
    public void close() throws IOException, InterruptedException {
      process.getOutputStream().close();
      if (!process.waitFor(1, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        process.waitFor(1, TimeUnit.MINUTES);
      }
    }
  }

  /** The host process: the runtime hosting the wallets, and the program by hand's server. */
  private static void host(String[] args) throws Exception {
    Path dir = Path.of(Figures.stringArg(args, "--dir", null));
    String namespace = Figures.stringArg(args, "--namespace", null);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(Figures.stringArg(args, "--url", null));
    config.setUsername(Figures.stringArg(args, "--user", null));
    config.setMaximumPoolSize(POOL);
    try (Toa toa = Toa.builder().directory(dir).host(namespace + ".wallets").build();
        HikariDataSource pool = new HikariDataSource(config);
        Server server =
            new Server(
                Figures.stringArg(args, "--amqp", null),
                new PostgresBench.Raw(pool, Figures.stringArg(args, "--schema", null), false))) {
      System.out.println(READY);
      System.out.flush();
      while (System.in.read() != -1) {
        // until the caller closes this process's standard input
      }
    }
  }

  /**
   * The program by hand's server: consumes the request queue with manual acknowledgements and a
   * window of {@value #PREFETCH}, runs each request on a pool of as many threads, answers it to its
   * reply-to, then acknowledges it. A request that fails is answered with its failure.
   */
  private static final class Server implements AutoCloseable {
    private final Connection connection;
    private final Channel channel;
    private final ExecutorService workers = Executors.newFixedThreadPool(PREFETCH);
    private final PostgresBench.Raw raw;

    Server(String broker, PostgresBench.Raw raw) throws Exception {
      this.raw = raw;
      ConnectionFactory factory = new ConnectionFactory();
      factory.setUri(broker);
      connection = factory.newConnection("bench server");
      channel = connection.createChannel();
      channel.queueDeclare(REQUESTS, true, false, false, null);
      channel.basicQos(PREFETCH);
      channel.basicConsume(
          REQUESTS,
          false,
          new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(
                String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
              workers.execute(() -> serve(envelope.getDeliveryTag(), properties, body));
            }
          });
    }

    private void serve(long tag, AMQP.BasicProperties properties, byte[] body) {
      String type = "output";
      byte[] answer;
      try {
        JsonNode request = JSON.readTree(body);
        answer =
            raw.credit(request.get("query").asText(), properties.getMessageId())
                .getBytes(StandardCharsets.UTF_8);
      } catch (Exception e) {
        type = "failure";
        answer = String.valueOf(e).getBytes(StandardCharsets.UTF_8);
      }
      AMQP.BasicProperties reply =
          new AMQP.BasicProperties.Builder()
              .correlationId(properties.getCorrelationId())
              .contentType("application/json")
              .type(type)
              .build();
      try {
        synchronized (channel) {
          channel.basicPublish("", properties.getReplyTo(), reply, answer);
          channel.basicAck(tag, false);
        }
      } catch (IOException e) {
        e.printStackTrace(); // the request stays unacknowledged and comes again when the channel
        // closes
      }
    }

    @Override
    public void close() throws Exception {
      if (channel.isOpen()) channel.close();
      workers.shutdown();
      workers.awaitTermination(1, TimeUnit.MINUTES);
      connection.close();
    }
  }

  /**
   * The program by hand's client: one channel in confirm mode for every caller thread, consuming
   * its direct reply-to. A caller publishes its request persistent under the channel's lock, then
   * waits for the broker's confirm and the server's answer; confirms are handled as they come, on
   * the connection's thread, a batch at a time when the broker confirms several at once.
   */
  private static final class Client implements AutoCloseable {
    private final Connection connection;
    private final Channel channel;
    private final ConcurrentSkipListMap<Long, CompletableFuture<Void>> unconfirmed =
        new ConcurrentSkipListMap<>();
    private final Map<String, CompletableFuture<AnswerBody>> waiting = new ConcurrentHashMap<>();
    private final AtomicLong correlations = new AtomicLong();

    private record AnswerBody(String type, byte[] body) {}

    Client(String broker) throws Exception {
      ConnectionFactory factory = new ConnectionFactory();
      factory.setUri(broker);
      connection = factory.newConnection("bench client");
      channel = connection.createChannel();
      channel.queueDeclare(REQUESTS, true, false, false, null);
      channel.confirmSelect();
      channel.addConfirmListener(
          new ConfirmListener() {
            @Override
            public void handleAck(long tag, boolean multiple) {
              settle(tag, multiple, null);
            }

            @Override
            public void handleNack(long tag, boolean multiple) {
              settle(tag, multiple, new IOException("the broker refused request " + tag));
            }
          });
      channel.basicConsume(
          DIRECT_REPLY_TO,
          true,
          new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(
                String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
              CompletableFuture<AnswerBody> caller = waiting.get(properties.getCorrelationId());
              if (caller != null) caller.complete(new AnswerBody(properties.getType(), body));
            }
          });
    }

    private void settle(long tag, boolean multiple, Exception failure) {
      var confirmed =
          multiple ? unconfirmed.headMap(tag, true) : unconfirmed.subMap(tag, true, tag, true);
      confirmed
          .values()
          .forEach(
              f -> {
                if (failure == null) f.complete(null);
                else f.completeExceptionally(failure);
              });
      confirmed.clear();
    }

    void credit(String wallet, String identity) throws Exception {
      byte[] body = JSON.writeValueAsBytes(Map.of("query", wallet, "input", Map.of("amount", 1)));
      String correlation = Long.toString(correlations.incrementAndGet());
      AMQP.BasicProperties properties =
          new AMQP.BasicProperties.Builder()
              .messageId(identity)
              .correlationId(correlation)
              .replyTo(DIRECT_REPLY_TO)
              .deliveryMode(2)
              .contentType("application/json")
              .build();
      CompletableFuture<AnswerBody> answer = new CompletableFuture<>();
      CompletableFuture<Void> confirm = new CompletableFuture<>();
      waiting.put(correlation, answer);
      try {
        synchronized (channel) {
          unconfirmed.put(channel.getNextPublishSeqNo(), confirm);
          channel.basicPublish("", REQUESTS, properties, body);
        }
        confirm.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        AnswerBody reply = answer.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (!"output".equals(reply.type())) {
          throw new IllegalStateException(
              "credit "
                  + identity
                  + " failed: "
                  + new String(reply.body(), StandardCharsets.UTF_8));
        }
        if (!JSON.readTree(reply.body()).has("balance")) {
          throw new IllegalStateException("credit " + identity + " was answered without a balance");
        }
      } finally {
        waiting.remove(correlation);
      }
    }

    @Override
    public void close() throws Exception {
      connection.close();
    }
  }
}
