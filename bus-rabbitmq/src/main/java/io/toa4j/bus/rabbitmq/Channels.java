package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The publishing connection's channels, each in confirm mode, lent to one thread at a time.
 *
 * <p>A channel is not thread-safe, so a caller borrows one, uses it alone and gives it back. A
 * channel that failed in any way is closed and dropped rather than returned, because a channel
 * error closes it on the broker's side. Up to {@link #KEEP} idle channels are kept, more than the
 * threads that usually publish at once (a subscription's handlers, up to its prefetch of 16, and
 * the callers): a pool smaller than that opens and closes a channel for nearly every publish, and
 * opening a channel in confirm mode and closing it costs the broker more than the publish. More are
 * made when more threads publish at once. No channel of the pool declares anything: see {@link
 * Declarations}.
 *
 * <p>While the connection recovers, publishing fails at once, and a publish during which a recovery
 * began fails after its confirm: recovery gives the channels back before it has declared the
 * topology again, and a broker that lost its definitions would confirm a message it routed nowhere.
 * The caller publishes it again (the outbox does), once the topology is back.
 *
 * <p>Every work on a channel of the pool runs on one of the bus's {@link Runners}, never on its
 * caller's thread, which may be at any depth of its stack: a {@link StackOverflowError} inside the
 * client would stop the connection for good. Two exceptions, each at a depth the bus knows: what a
 * thread the bus started sends once its handler returned ({@link #publishFromBus}), and the channel
 * {@link #open} gives an operator's browsing of the parked queue. Thread-safe.
 */
final class Channels implements AutoCloseable {
  static final int KEEP = 64;

  /** Work on a borrowed channel. */
  @FunctionalInterface
  interface Work<T> {
    T on(Channel channel) throws IOException, InterruptedException, TimeoutException;
  }

  private final Connection connection;
  private final Duration confirmTimeout;
  private final BlockingQueue<Channel> idle = new LinkedBlockingQueue<>(KEEP);
  private final AtomicLong recoveries = new AtomicLong();
  private final AtomicLong opened = new AtomicLong();
  private final Runners runners = new Runners("toa4j-rabbitmq-publisher", KEEP, RUNNER_IDLE);
  private volatile boolean recovering;

  /** How long a runner with nothing to do waits for work before it ends. */
  private static final Duration RUNNER_IDLE = Duration.ofSeconds(60);

  Channels(Connection connection, Duration confirmTimeout) {
    this.connection = connection;
    this.confirmTimeout = confirmTimeout;
    if (connection instanceof Recoverable recoverable) {
      recoverable.addRecoveryListener(
          new RecoveryListener() {
            @Override
            public void handleRecoveryStarted(Recoverable recoverable) {
              recovering = true;
              recoveries.incrementAndGet();
            }

            @Override
            public void handleRecovery(
                Recoverable recoverable) { // after the topology was declared again
              recovering = false;
            }
          });
    }
  }

  /**
   * Publishes and waits until the broker confirms it has the message (on disk, for a persistent
   * message to a durable queue).
   */
  void publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body)
      throws IOException, InterruptedException, TimeoutException {
    publish(List.of(new Outgoing(exchange, routingKey, properties, body)));
  }

  /**
   * Publishes as {@link #publish(String, String, AMQP.BasicProperties, byte[])} does, on this very
   * thread when it is one the bus started ({@link BusThread}): for what a handler's thread sends
   * once its handler returned (an answer, a retry's copy), at the bottom of a stack the bus knows,
   * which a hand-over would only make slower. Any other thread hands it over.
   */
  void publishFromBus(
      String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body)
      throws IOException, InterruptedException, TimeoutException {
    List<Outgoing> messages = List.of(new Outgoing(exchange, routingKey, properties, body));
    if (BusThread.current()) {
      publish(messages, this::borrowed);
    } else {
      publish(messages, this::with);
    }
  }

  /** One message to publish: where to, its properties and its body. */
  record Outgoing(
      String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {}

  /**
   * Publishes the messages on one channel, in order, and waits once until the broker confirms it
   * has them all: a window of confirms rather than a wait per message.
   */
  void publish(List<Outgoing> messages) throws IOException, InterruptedException, TimeoutException {
    publish(messages, this::with);
  }

  /**
   * Hands the publish to a runner and returns at once, for a caller that waits for something else
   * the broker sends after it (a call's answer): what the publish throws — not confirmed in time,
   * the connection lost or recovering — goes to {@code failed}, on the runner.
   *
   * @throws IOException when the bus is closed, before anything is handed over
   */
  void send(
      String exchange,
      String routingKey,
      AMQP.BasicProperties properties,
      byte[] body,
      Consumer<Throwable> failed)
      throws IOException {
    List<Outgoing> messages = List.of(new Outgoing(exchange, routingKey, properties, body));
    runners.send(
        () -> {
          publish(messages, this::borrowed);
          return null;
        },
        failed);
  }

  /** How a publish reaches a channel: handed over to a runner, or on the thread it is on. */
  @FunctionalInterface
  private interface Lending {
    Object lend(Work<Object> work) throws IOException, InterruptedException, TimeoutException;
  }

  private void publish(List<Outgoing> messages, Lending lending)
      throws IOException, InterruptedException, TimeoutException {
    long recovered = recoveries.get();
    if (recovering)
      throw new IOException(
          "the connection to the broker is recovering; publish again once it is back");
    lending.lend(
        channel -> {
          for (Outgoing message : messages)
            channel.basicPublish(
                message.exchange(), message.routingKey(), message.properties(), message.body());
          channel.waitForConfirmsOrDie(confirmTimeout.toMillis());
          return null;
        });
    if (recoveries.get() != recovered) {
      throw new IOException(
          "the connection to the broker recovered while publishing; the messages may not have been routed");
    }
  }

  /** Whether the connection is down or recovering its channels and topology. */
  boolean recovering() {
    return recovering || !connection.isOpen();
  }

  /** Runs the work on a channel of the pool, on one of the bus's runners. */
  <T> T with(Work<T> work) throws IOException, InterruptedException, TimeoutException {
    return runners.run(() -> borrowed(work));
  }

  private <T> T borrowed(Work<T> work) throws IOException, InterruptedException, TimeoutException {
    Channel channel = borrow();
    boolean healthy = false;
    try {
      T result = work.on(channel);
      healthy = true;
      return result;
    } finally {
      if (healthy && channel.isOpen() && idle.offer(channel)) {
        // kept for the next caller
      } else {
        closeQuietly(channel);
      }
    }
  }

  /** A channel of the publishing connection in confirm mode, which its caller closes. */
  Channel open() throws IOException {
    Channel channel = connection.createChannel();
    if (channel == null) throw new IOException("the broker has no channel left for this bus");
    channel.confirmSelect();
    opened.incrementAndGet();
    return channel;
  }

  /** How many channels this pool has opened so far; for tests. */
  long opened() {
    return opened.get();
  }

  @Override
  public void close() {
    runners.close();
    Channel channel;
    while ((channel = idle.poll()) != null) closeQuietly(channel);
  }

  private Channel borrow() throws IOException {
    Channel channel;
    while ((channel = idle.poll()) != null) {
      if (channel.isOpen()) return channel;
    }
    return open();
  }

  static void closeQuietly(Channel channel) {
    try {
      if (channel.isOpen()) channel.close();
    } catch (IOException | TimeoutException | ShutdownSignalException e) {
      // already closing, or closed by the broker: nothing is left to release
    }
  }
}
