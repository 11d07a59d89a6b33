package io.toa4j.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.ObjectMapper;

/**
 * What the runtime's RabbitMQ bus does with a credit's event after the commit, written by hand on
 * the RabbitMQ client, for {@link PostgresBench} to measure the broker's own price in the same run:
 * the floor under the runtime on that bus, which the program by hand without a broker does not pay.
 *
 * <ul>
 *   <li>The caller, after its commit, hands the outbox row's id and the event's body to the relay
 *       (in memory, as the runtime's publisher takes committed entries).
 *   <li>The relay, one thread, takes all that waits (up to {@link #BATCH}), publishes each as a
 *       persistent message to a durable direct exchange bound to a durable queue, waits once for
 *       the broker's confirms of them all, then marks them published in one statement.
 *   <li>One consumer with manual acks and the runtime's default prefetch reads each message's
 *       balance (failing on one no credited wallet has, as the runtime's receiver does) and acks it
 *       on the client's own thread.
 * </ul>
 *
 * Its exchange and queue live in the bench's virtual host, deleted with it. Any failure is kept and
 * thrown by {@link #settle}: in a benchmark every one is a fault. Thread-safe.
 */
final class ByHandRelay implements AutoCloseable {
  private static final String EXCHANGE = "by_hand.events";
  private static final String QUEUE = "by_hand.ledger";
  private static final String LABEL = "credited";
  private static final int PREFETCH = 16; // the bus's default
  private static final int BATCH = 256;
  private static final Duration CONFIRMS = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A committed outbox row: its id and the event's body. */
  private record Entry(String id, byte[] body) {}

  private final HikariDataSource pool;
  private final String schema;
  private final com.rabbitmq.client.Connection publishing;
  private final com.rabbitmq.client.Connection consuming;
  private final BlockingQueue<Entry> committed = new LinkedBlockingQueue<>();
  private final Thread relay = new Thread(this::relay, "by-hand relay");
  private final Object lock = new Object(); // settle waits on it for handled messages
  private long handed; // guarded by lock: entries handed to the relay
  private long handled; // guarded by lock: messages acknowledged by the consumer
  private long marked; // guarded by lock: entries marked published
  private Exception failure; // guarded by lock
  private volatile boolean closing;

  ByHandRelay(HikariDataSource pool, String schema, String amqpUrl) throws Exception {
    this.pool = pool;
    this.schema = schema;
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(amqpUrl);
    publishing = factory.newConnection("by-hand relay");
    consuming = factory.newConnection("by-hand consumer");
    try (Channel setup = publishing.createChannel()) {
      setup.exchangeDeclare(EXCHANGE, BuiltinExchangeType.DIRECT, true);
      setup.queueDeclare(QUEUE, true, false, false, null);
      setup.queueBind(QUEUE, EXCHANGE, LABEL);
    }
    Channel channel = consuming.createChannel();
    channel.basicQos(PREFETCH);
    channel.basicConsume(QUEUE, false, new Receiver(channel));
    relay.setDaemon(true);
    relay.start();
  }

  /** Hands a committed outbox row to the relay. */
  void committed(String id, byte[] body) {
    synchronized (lock) {
      handed++;
    }
    committed.add(new Entry(id, body));
  }

  /**
   * Returns once every entry handed so far was published, marked published and handled, as a round
   * of the runtime ends only when its events are; throws what failed.
   */
  void settle(Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    synchronized (lock) {
      while (failure == null && (handled < handed || marked < handed)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException(
              "by hand: of "
                  + handed
                  + " event(s), "
                  + handled
                  + " handled and "
                  + marked
                  + " marked published within "
                  + within);
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while settling", e);
        }
      }
      if (failure != null)
        throw new IllegalStateException("by hand: the relay or its consumer failed", failure);
    }
  }

  private void relay() {
    List<Entry> batch = new ArrayList<>(BATCH);
    try (Channel channel = publishing.createChannel()) {
      channel.confirmSelect();
      while (!closing) {
        Entry first = committed.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) continue;
        batch.add(first);
        committed.drainTo(batch, BATCH - 1);
        for (Entry entry : batch) {
          AMQP.BasicProperties properties =
              new AMQP.BasicProperties.Builder()
                  .messageId(entry.id())
                  .type(LABEL)
                  .contentType("application/json")
                  .deliveryMode(2) // persistent
                  .build();
          channel.basicPublish(EXCHANGE, LABEL, properties, entry.body());
        }
        channel.waitForConfirmsOrDie(CONFIRMS.toMillis());
        try (Connection c = pool.getConnection();
            PreparedStatement s =
                c.prepareStatement(
                    "UPDATE "
                        + schema
                        + ".outbox SET published = ? WHERE id = ANY (?) AND published IS NULL")) {
          s.setLong(1, System.currentTimeMillis());
          s.setArray(2, c.createArrayOf("text", batch.stream().map(Entry::id).toArray()));
          s.executeUpdate();
        }
        synchronized (lock) {
          marked += batch.size();
          if (marked >= handed) lock.notifyAll();
        }
        batch.clear();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failed(e);
    }
  }

  private void failed(Exception e) {
    synchronized (lock) {
      if (failure == null) failure = e;
      lock.notifyAll();
    }
  }

  /** Reads each message's balance and acks it. */
  private final class Receiver extends DefaultConsumer {
    Receiver(Channel channel) {
      super(channel);
    }

    @Override
    public void handleDelivery(
        String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
        throws IOException {
      long balance = JSON.readTree(body).path("balance").asLong();
      if (balance < 1) {
        failed(
            new IllegalStateException(
                "a credited wallet holds "
                    + balance
                    + " (message "
                    + properties.getMessageId()
                    + ")"));
        return;
      }
      getChannel().basicAck(envelope.getDeliveryTag(), false);
      synchronized (lock) {
        handled++;
        if (handled >= handed) lock.notifyAll();
      }
    }
  }

  @Override
  public void close() throws Exception {
    closing = true;
    relay.join(CONFIRMS.toMillis() * 2);
    consuming.close();
    publishing.close();
  }
}
