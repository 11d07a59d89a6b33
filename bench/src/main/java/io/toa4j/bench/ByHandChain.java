package io.toa4j.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.ObjectMapper;

/**
 * The shop's chain record -> paid -> credit written by hand, at least once, on plain JDBC (HikariCP
 * pools, pgJDBC) and the RabbitMQ client: what a careful engineer writes without the runtime, for
 * {@link ChainBench} to measure the runtime against.
 *
 * <ul>
 *   <li><b>record</b>: one transaction inserts the top-up keyed by its checkout (a repeat changes
 *       nothing) and, only when it created the row, an outbox row carrying the event's payload;
 *       after the commit the relay is signalled.
 *   <li><b>relay</b>: one thread, off the callers' path, publishes the pending outbox rows in
 *       batches as persistent messages to a durable exchange bound to a durable queue, waits once
 *       per batch for the broker's confirms, then marks the batch published in one statement. It
 *       takes what is pending, not what it was told about: a row committed while a batch is in
 *       flight sets the signal again and goes out with the next batch; a row whose batch failed
 *       stays pending and goes out again (at least once).
 *   <li><b>consumers</b>: six, with manual acks and a prefetch window; per message one transaction
 *       inserts an inbox row keyed by the event's id (a repeat does nothing) and credits the
 *       wallet, then the message is acknowledged.
 *   <li><b>intake</b>: given a bound, a caller waits before recording while more than the bound of
 *       top-ups are recorded and not yet credited, at most {@link #BOUND_WAIT}: the runtime's
 *       backpressure, done the way one process that holds both ends can (two counters).
 * </ul>
 *
 * <p>Its tables live in a schema of its own, its exchange and queue have names of their own; {@link
 * #close()} drops them. It opens as many database connections as the runtime's PostgreSQL storage
 * does ({@link #CONNECTIONS}), split between the callers and the chain behind them.
 *
 * <p>Thread-safe: {@link #record} is called from any number of threads.
 */
final class ByHandChain implements AutoCloseable {
  private static final String SCHEMA = "by_hand";
  private static final String EXCHANGE = "by_hand.billing.topups";
  private static final String QUEUE = "by_hand.billing.wallets.paid";
  private static final String PAID = "paid";

  /**
   * The runtime's PostgreSQL storage opens 10 connections for everything; so does this chain, split
   * so that the chain behind the callers keeps up with them: the relay and each consumer have a
   * connection of their own (never queueing behind the callers), and the callers share the rest. A
   * credit costs the database what a record costs (two statements and a commit), and the machine's
   * CPU goes round the connections at work; with fewer consumers than callers' connections the
   * queue grows for as long as the callers record, and every top-up's latency with it. So the
   * intake is the narrower end: sixteen callers queue for three connections, the backpressure a
   * careful engineer puts at the door rather than in the broker.
   */
  private static final int CONNECTIONS = 10;

  /**
   * Each consumer's work is one transaction, mostly waiting on round trips and on the write-ahead
   * log's flush; several commit together, which PostgreSQL flushes in one go. Six (see {@link
   * #CONNECTIONS}): on two cores, with five the queue still grew while the callers recorded, and
   * with seven the callers' two connections held the throughput down. Each has a channel of its
   * own, because a channel hands its deliveries to its consumer one after another.
   */
  private static final int CONSUMERS = 6;

  private static final int CALLERS_POOL = CONNECTIONS - CONSUMERS - 1; // the relay has one

  /**
   * Unacknowledged messages per consumer: the runtime's default; enough that none waits for the
   * next while its ack travels.
   */
  private static final int PREFETCH = 16;

  private static final int BATCH = 256; // outbox rows per publish, and so per wait for confirms
  private static final Duration CONFIRMS = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The longest a caller waits for the chain to catch up, as the runtime's default. */
  private static final Duration BOUND_WAIT = Duration.ofSeconds(1);

  /** The event's payload: the top-up that was recorded. */
  record Paid(String checkout, String customer, long amount, String currency) {}

  private final HikariDataSource callers; // record, and reading the wallets back
  private final HikariDataSource chain; // the relay's and the consumers' connections, one each
  private final ExecutorService consumerThreads = Executors.newFixedThreadPool(CONSUMERS);
  private final Thread relay = new Thread(this::relay, "by-hand relay");
  private final Object signal = new Object(); // the relay waits on it for commits
  private final Object lock = new Object(); // settle waits on it for credits
  private com.rabbitmq.client.Connection publishing; // set by start
  private com.rabbitmq.client.Connection consuming; // set by start
  private boolean signalled =
      true; // guarded by signal; true: the relay's first pass takes what an earlier run left
  private boolean closing; // guarded by signal
  private long recorded; // guarded by lock: top-ups created
  private long credited; // guarded by lock: wallets credited (not counting repeats)
  private Exception
      failure; // guarded by lock: the first thing the relay or a consumer could not do
  private final long
      bound; // top-ups recorded and not yet credited before callers wait; 0: they never wait

  private ByHandChain(HikariDataSource callers, HikariDataSource chain, long bound) {
    this.callers = callers;
    this.chain = chain;
    this.bound = bound;
  }

  /**
   * Creates the tables, the exchange and the queue, and starts the relay and the consumers.
   *
   * @param bound how many top-ups may be recorded and not yet credited before callers wait; 0: none
   *     waits
   */
  static ByHandChain open(String jdbcUrl, String amqpUrl, long bound) throws Exception {
    HikariDataSource callers = pool(jdbcUrl, "by-hand callers", CALLERS_POOL);
    HikariDataSource chain;
    try {
      chain = pool(jdbcUrl, "by-hand relay and consumers", CONSUMERS + 1);
    } catch (RuntimeException e) {
      callers.close();
      throw e;
    }
    ByHandChain opened = new ByHandChain(callers, chain, bound);
    try {
      opened.start(amqpUrl);
    } catch (Exception e) {
      try {
        opened.close();
      } catch (Exception suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return opened;
  }

  private static HikariDataSource pool(String jdbcUrl, String name, int size) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(name);
    config.setJdbcUrl(jdbcUrl);
    config.setMaximumPoolSize(size);
    return new HikariDataSource(config);
  }

  private void start(String amqpUrl) throws Exception {
    try (Connection c = callers.getConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + SCHEMA);
      s.execute(
          "CREATE TABLE "
              + SCHEMA
              + ".topups (checkout text PRIMARY KEY, customer text NOT NULL, amount bigint NOT NULL,"
              + " currency text NOT NULL, created bigint NOT NULL)");
      s.execute(
          "CREATE TABLE "
              + SCHEMA
              + ".outbox (position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id uuid NOT NULL,"
              + " payload text NOT NULL, published bigint)");
      s.execute(
          "CREATE INDEX outbox_pending ON "
              + SCHEMA
              + ".outbox (position) WHERE published IS NULL");
      s.execute("CREATE TABLE " + SCHEMA + ".inbox (id uuid PRIMARY KEY, handled bigint NOT NULL)");
      s.execute(
          "CREATE TABLE "
              + SCHEMA
              + ".wallets (customer text PRIMARY KEY, balance bigint NOT NULL, updated bigint NOT NULL)");
    }
    ConnectionFactory broker = new ConnectionFactory();
    broker.setUri(amqpUrl);
    // Publishing and consuming on connections of their own: the broker's flow control, which
    // blocks a publishing connection, then never holds up the consumers that would relieve it.
    publishing = broker.newConnection("by-hand relay");
    consuming = broker.newConnection(consumerThreads, "by-hand consumers");
    try (Channel c = publishing.createChannel()) {
      c.exchangeDeclare(EXCHANGE, BuiltinExchangeType.DIRECT, true);
      c.queueDeclare(QUEUE, true, false, false, null);
      c.queueBind(QUEUE, EXCHANGE, PAID);
    }
    for (int i = 0; i < CONSUMERS; i++) {
      Channel channel = consuming.createChannel();
      channel.basicQos(PREFETCH);
      channel.basicConsume(QUEUE, false, new Credits(channel));
    }
    relay.start();
  }

  /** Records a paid checkout; a repeated checkout changes nothing and announces nothing. */
  void record(String checkout, String customer, long amount, String currency) throws SQLException {
    awaitRoom();
    long now = System.currentTimeMillis();
    boolean created;
    try (Connection c = callers.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement topup =
              c.prepareStatement(
                  "INSERT INTO "
                      + SCHEMA
                      + ".topups (checkout, customer, amount, currency, created)"
                      + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (checkout) DO NOTHING");
          PreparedStatement outbox =
              c.prepareStatement("INSERT INTO " + SCHEMA + ".outbox (id, payload) VALUES (?, ?)")) {
        topup.setString(1, checkout);
        topup.setString(2, customer);
        topup.setLong(3, amount);
        topup.setString(4, currency);
        topup.setLong(5, now);
        created = topup.executeUpdate() == 1;
        if (created) {
          outbox.setObject(1, UUID.randomUUID());
          outbox.setString(
              2, JSON.writeValueAsString(new Paid(checkout, customer, amount, currency)));
          outbox.executeUpdate();
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
    if (created) {
      synchronized (lock) {
        recorded++;
      }
      synchronized (signal) {
        signalled = true;
        signal.notify();
      }
    }
  }

  /**
   * Waits, at most {@link #BOUND_WAIT}, while more than the bound of top-ups wait for their credit.
   */
  private void awaitRoom() {
    if (bound <= 0) return;
    long deadline = System.nanoTime() + BOUND_WAIT.toNanos();
    synchronized (lock) {
      try {
        for (long left = BOUND_WAIT.toNanos();
            recorded - credited > bound && failure == null && left > 0;
            left = deadline - System.nanoTime()) {
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Returns once every top-up recorded so far has credited its wallet; fails with what the relay or
   * a consumer could not do, or after {@code timeout} with the numbers.
   */
  void settle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (credited < recorded && failure == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException(
              "the chain by hand did not settle within "
                  + timeout
                  + ": "
                  + credited
                  + " of "
                  + recorded
                  + " top-ups credited");
        }
        TimeUnit.NANOSECONDS.timedWait(lock, left);
      }
      if (failure != null) throw new IllegalStateException("the chain by hand failed", failure);
    }
  }

  /**
   * When the wallet of {@code customer} was credited (system clock, ms); fails unless it holds
   * {@code balance}.
   */
  long credited(String customer, long balance) throws SQLException {
    try (Connection c = callers.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT balance, updated FROM " + SCHEMA + ".wallets WHERE customer = ?")) {
      s.setString(1, customer);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next())
          throw new IllegalStateException(
              "the wallet of " + customer + " was never credited by hand");
        if (r.getLong(1) != balance) {
          throw new IllegalStateException(
              "the wallet of " + customer + " holds " + r.getLong(1) + " by hand, not " + balance);
        }
        return r.getLong(2);
      }
    }
  }

  /**
   * Publishes what the outbox holds each time it is signalled, until closed. A batch that fails
   * stays pending and goes out again with the next signal, on a new channel if that one is gone;
   * the failure is kept for {@link #settle}, since in a benchmark any is a fault.
   */
  private void relay() {
    Channel channel = null;
    try {
      while (awaitSignal()) {
        try {
          if (channel == null || !channel.isOpen()) {
            channel = publishing.createChannel();
            channel.confirmSelect();
          }
          while (publishBatch(channel)
              == BATCH) {} // a short batch took all there was when it was read
        } catch (IOException | SQLException | TimeoutException | RuntimeException e) {
          failed(e);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (channel != null && channel.isOpen()) {
        try {
          channel.close();
        } catch (IOException | TimeoutException | RuntimeException e) {
          // the connection closes next
        }
      }
    }
  }

  /**
   * Waits until a commit signals the relay, and clears the signal before the relay reads the
   * outbox: a commit after the read signals again. The wait is bounded so that rows committed by
   * another process running the same code (none here) would go out too. False once closed.
   */
  private boolean awaitSignal() throws InterruptedException {
    synchronized (signal) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
      for (long left = deadline - System.nanoTime();
          !signalled && !closing && left > 0;
          left = deadline - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(signal, left);
      }
      signalled = false;
      return !closing;
    }
  }

  /**
   * Publishes up to {@link #BATCH} pending outbox rows, waits for their confirms, marks them
   * published; returns how many.
   */
  private int publishBatch(Channel channel)
      throws IOException, SQLException, TimeoutException, InterruptedException {
    List<Long> positions = new ArrayList<>(BATCH);
    try (Connection c = chain.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT position, id, payload FROM "
                    + SCHEMA
                    + ".outbox WHERE published IS NULL"
                    + " ORDER BY position LIMIT "
                    + BATCH)) {
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          positions.add(r.getLong(1));
          AMQP.BasicProperties properties =
              new AMQP.BasicProperties.Builder()
                  .messageId(r.getString(2))
                  .contentType("application/json")
                  .deliveryMode(2) // persistent
                  .build();
          channel.basicPublish(
              EXCHANGE, PAID, properties, r.getString(3).getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    if (positions.isEmpty()) return 0;
    channel.waitForConfirmsOrDie(
        CONFIRMS.toMillis()); // throws unless the broker took every message of the batch
    try (Connection c = chain.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "UPDATE " + SCHEMA + ".outbox SET published = ? WHERE position = ANY (?)")) {
      s.setLong(1, System.currentTimeMillis());
      s.setArray(2, c.createArrayOf("bigint", positions.toArray()));
      s.executeUpdate();
    }
    return positions.size();
  }

  /**
   * Credits a wallet per message, in one transaction with the inbox row that makes a repeat do
   * nothing, then acks.
   */
  private final class Credits extends DefaultConsumer {
    Credits(Channel channel) {
      super(channel);
    }

    @Override
    public void handleDelivery(
        String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
        throws IOException {
      boolean applied;
      try {
        applied =
            credit(UUID.fromString(properties.getMessageId()), JSON.readValue(body, Paid.class));
      } catch (SQLException | RuntimeException e) {
        failed(e);
        getChannel()
            .basicNack(
                envelope.getDeliveryTag(), false, true); // again, to this or another consumer
        return;
      }
      getChannel().basicAck(envelope.getDeliveryTag(), false);
      if (applied) {
        synchronized (lock) {
          credited++;
          lock.notifyAll();
        }
      }
    }
  }

  /** The inbox row and the credit in one transaction; false when the event was handled before. */
  private boolean credit(UUID event, Paid paid) throws SQLException {
    try (Connection c = chain.getConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement inbox =
              c.prepareStatement(
                  "INSERT INTO "
                      + SCHEMA
                      + ".inbox (id, handled) VALUES (?, ?)"
                      + " ON CONFLICT (id) DO NOTHING");
          PreparedStatement wallet =
              c.prepareStatement(
                  "INSERT INTO "
                      + SCHEMA
                      + ".wallets AS w (customer, balance, updated)"
                      + " VALUES (?, ?, ?) ON CONFLICT (customer) DO UPDATE SET balance = w.balance + excluded.balance, updated = excluded.updated")) {
        long now = System.currentTimeMillis();
        inbox.setObject(1, event);
        inbox.setLong(2, now);
        if (inbox.executeUpdate() == 0) {
          c.rollback();
          return false;
        }
        wallet.setString(1, paid.customer());
        wallet.setLong(2, paid.amount());
        wallet.setLong(3, now);
        wallet.executeUpdate();
        c.commit();
        return true;
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private void failed(Exception e) {
    synchronized (lock) {
      if (failure == null) failure = e;
      lock.notifyAll();
    }
  }

  /** Stops the relay and the consumers, deletes the queue and the exchange, drops the tables. */
  @Override
  public void close() throws Exception {
    synchronized (signal) {
      closing = true;
      signal.notify();
    }
    if (relay.isAlive()) relay.join(CONFIRMS.toMillis() * 2);
    try {
      if (consuming != null)
        consuming.close(); // what the consumers hold goes back to the queue, which goes next
      consumerThreads.shutdown();
      if (publishing != null) {
        try (Channel c = publishing.createChannel()) {
          c.queueDelete(QUEUE);
          c.exchangeDelete(EXCHANGE);
        }
        publishing.close();
      }
    } finally {
      try (Connection c = callers.getConnection();
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
      } finally {
        chain.close();
        callers.close();
      }
    }
  }
}
