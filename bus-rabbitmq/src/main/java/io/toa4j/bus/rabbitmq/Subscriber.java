package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;
import com.rabbitmq.client.ShutdownSignalException;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Combiner;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.OutageLog;
import io.toa4j.spi.Verdict;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer of one queue, on a channel of its own with manual acknowledgements and a bounded
 * prefetch; its work runs on the bus's executor, at most prefetch at once.
 *
 * <p>A delivery is acknowledged only after its work is done: for a message, {@link Verdicts}
 * publishes the retry or parked copy and waits for the broker's confirm before the ack; for a call,
 * {@link Calls} sends the answer first. A crash between the two leaves both the copy and the
 * original, so the message comes twice and is never lost.
 *
 * <p>A delivery whose work failed on a channel still open (the retry copy not confirmed in time, or
 * refused) is given back: nacked with requeue after {@link #REQUEUE_AFTER}, so that a broker
 * refusing copies (under a memory or disk alarm, or while the publishing connection recovers) is
 * not asked again at once. Its place in the prefetch window comes free with the nack; a delivery
 * left unacknowledged on a live channel would keep its place for good, and a window of them would
 * stop the consumer. On a channel gone with its connection, the broker has given it back already.
 *
 * <p>Acknowledgements are sent together (flat combining, no thread of their own; {@link Combiner}):
 * a handler whose delivery is settled while another is sending acks leaves its ack to that one,
 * which sends every waiting ack before it goes back to its own work. Each ack is a write to the
 * socket, and a quarter of the handlers' time when every delivery was acknowledged alone. The acks
 * below every delivery still open (in hand, or left unacknowledged after its work failed) go as one
 * {@code basic.ack} with {@code multiple}, which the broker applies to every delivery of the
 * channel up to that tag; those above one still open go alone, so an ack never covers a delivery
 * not settled. Nacks go first, each alone, and a delivery leaves the open ones only as its nack
 * joins those to send: no ack with {@code multiple} can cover it before its nack is sent. Delivery
 * tags grow on a channel, also across its recovery (the client offsets them), and a recovery
 * forgets the deliveries still open: the broker gave them back, and the client drops an ack of a
 * tag from before it.
 *
 * <p>Thread-safe. The channel is used by the client's dispatch thread (deliveries) and by handler
 * threads (acks); acks are serialized on the channel.
 */
final class Subscriber extends DefaultConsumer implements Bus.Subscription {
  private static final Logger LOG = LoggerFactory.getLogger(Subscriber.class);

  /** How long a delivery whose work failed on a live channel is held before it is given back. */
  static final Duration REQUEUE_AFTER = Duration.ofSeconds(1);

  /**
   * The subscriber whose handler runs on this thread, so closing from a handler does not wait for
   * itself.
   */
  private static final ThreadLocal<Subscriber> HANDLING = new ThreadLocal<>();

  private final String queue;
  private final Work work;
  private final Executor executor;
  private final Duration closeTimeout;
  private final Consumer<Subscriber> onClose;
  private final Object lock = new Object();

  /**
   * The channel lost and back: one WARN and one INFO, not a line per message it could not settle.
   */
  private final OutageLog outage;

  private int unacked; // guarded by lock

  /**
   * Deliveries handed over and not settled: in hand, or left unacknowledged after their work
   * failed.
   */
  private final NavigableSet<Long> open = new TreeSet<>(); // guarded by lock

  /** Settled deliveries whose ack is still to be sent. */
  private final List<Long> settled = new ArrayList<>(); // guarded by lock

  /** Deliveries given back, whose nack (with requeue) is still to be sent. */
  private final List<Long> refused = new ArrayList<>(); // guarded by lock

  /** Sends the waiting acks and nacks, on one handler thread at a time. */
  private final Combiner acks = Combiner.inline(this::sendWaiting);

  private volatile boolean closed;

  Subscriber(
      Channel channel,
      String queue,
      Work work,
      Executor executor,
      Duration closeTimeout,
      Consumer<Subscriber> onClose) {
    super(channel);
    this.queue = queue;
    this.work = work;
    this.executor = executor;
    this.closeTimeout = closeTimeout;
    this.onClose = onClose;
    this.outage = new OutageLog(LOG, "The consumer of queue " + queue);
    if (channel instanceof Recoverable recoverable) {
      recoverable.addRecoveryListener(
          new RecoveryListener() {
            @Override
            public void handleRecovery(Recoverable recovered) {
              outage.succeeded();
            }

            @Override
            public void handleRecoveryStarted(Recoverable recovering) {
              // before the consumer is registered again: every delivery open went back to the queue
              synchronized (lock) {
                open.clear();
              }
            }
          });
    }
  }

  /** What is done with a delivery before it is acknowledged; throwing leaves it unacknowledged. */
  @FunctionalInterface
  interface Work {
    void settle(Delivery delivery, AMQP.BasicProperties properties)
        throws IOException, InterruptedException, TimeoutException;
  }

  /** The work of a message's consumer: the handler's verdict, made durable by the verdicts. */
  static Work messages(String queue, Bus.Handler handler, Verdicts verdicts) {
    return (delivery, properties) -> verdicts.settle(delivery, verdict(queue, handler, delivery));
  }

  void start(int prefetch) throws IOException {
    getChannel().basicQos(prefetch);
    getChannel().basicConsume(queue, false, this);
  }

  String queue() {
    return queue;
  }

  /** Deliveries this subscriber holds: handed over by the broker and not yet acknowledged. */
  int unacked() {
    synchronized (lock) {
      return unacked;
    }
  }

  @Override
  public void handleDelivery(
      String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
    synchronized (lock) {
      unacked++;
      open.add(envelope.getDeliveryTag());
    }
    Delivery delivery =
        new Delivery(
            Codec.message(properties, body),
            queue,
            Codec.attempt(properties, envelope.isRedeliver()),
            Codec.firstFailed(properties));
    try {
      executor.execute(() -> handle(envelope.getDeliveryTag(), delivery, properties));
    } catch (RejectedExecutionException e) {
      finished(1); // the bus is closing; the broker hands it out again when the channel closes
    }
  }

  @Override
  public void handleCancel(String tag) {
    LOG.warn("The broker cancelled the consumer of queue {} (was it deleted?)", queue);
  }

  @Override
  public void handleShutdownSignal(String tag, ShutdownSignalException cause) {
    if (!closed && !cause.isInitiatedByApplication()) outage.failed(cause);
  }

  private void handle(long tag, Delivery delivery, AMQP.BasicProperties properties) {
    HANDLING.set(this);
    Throwable failure = null;
    try {
      work.settle(delivery, properties);
    } catch (Throwable t) { // an Error too: the delivery must still be acknowledged or given back
      failure = t;
      if (t instanceof InterruptedException) Thread.currentThread().interrupt();
    } finally {
      HANDLING.remove();
    }
    if (failure == null) {
      settle(tag, true);
      return;
    }
    try {
      unsettled(tag, delivery, failure);
    } finally {
      if (failure instanceof Error e) throw e;
    }
  }

  /**
   * A delivery whose work failed: given back, unless its channel went and the broker took it back.
   */
  private void unsettled(long tag, Delivery delivery, Throwable failure) {
    if (!getChannel().isOpen() || Connections.isLost(failure)) {
      finished(1); // stays open, so that no ack covers it: its tag is from before the recovery
      outage.failed(failure);
      return;
    }
    try {
      CompletableFuture.delayedExecutor(REQUEUE_AFTER.toMillis(), TimeUnit.MILLISECONDS)
          .execute(() -> settle(tag, false));
    } catch (RuntimeException | Error e) {
      settle(tag, false);
    }
    LOG.warn(
        "Cannot settle message {} of queue {} (attempt {}); it goes back to the queue in {} ms",
        delivery.message().id(),
        queue,
        delivery.attempt(),
        REQUEUE_AFTER.toMillis(),
        failure);
  }

  /**
   * Leaves the delivery's ack (or nack, with requeue) to be sent with every other one waiting, and
   * sends them unless a thread is sending them: that thread sends it before it stops. A delivery
   * counts as held until its ack or nack is sent.
   */
  private void settle(long tag, boolean done) {
    synchronized (lock) {
      open.remove(tag);
      (done ? settled : refused).add(tag);
    }
    acks.request();
  }

  /**
   * Sends every waiting nack and ack; a drain of {@link #acks}, taking them all before it sends.
   */
  private void sendWaiting() {
    List<Long> acked;
    List<Long> nacked;
    long lowestOpen;
    synchronized (lock) {
      if (settled.isEmpty() && refused.isEmpty()) return;
      acked = new ArrayList<>(settled);
      nacked = new ArrayList<>(refused);
      settled.clear();
      refused.clear();
      lowestOpen = open.isEmpty() ? Long.MAX_VALUE : open.first();
    }
    try {
      send(acked, nacked, lowestOpen);
      outage.succeeded();
    } catch (IOException | RuntimeException e) {
      if (closed && !getChannel().isOpen()) {
        LOG.debug(
            "{} message(s) of queue {} settled after its consumer closed come again",
            acked.size() + nacked.size(),
            queue,
            e);
      } else if (!getChannel().isOpen() || Connections.isLost(e)) {
        outage.failed(e); // the channel went with its connection: the broker hands them out again
      } else {
        LOG.warn(
            "Cannot acknowledge {} message(s) of queue {}; they will be delivered again",
            acked.size() + nacked.size(),
            queue,
            e);
      }
    } finally {
      finished(acked.size() + nacked.size());
    }
  }

  /**
   * The nacks, with requeue, each alone; then one ack with {@code multiple} for the tags below
   * every open delivery, one each for the rest.
   */
  private void send(List<Long> tags, List<Long> nacked, long lowestOpen) throws IOException {
    long below = 0;
    int together = 0;
    List<Long> alone = new ArrayList<>();
    for (long tag : tags) {
      if (tag < lowestOpen) {
        below = Math.max(below, tag);
        together++;
      } else {
        alone.add(tag);
      }
    }
    synchronized (getChannel()) {
      for (long tag : nacked) getChannel().basicNack(tag, false, true);
      if (together > 0) getChannel().basicAck(below, together > 1);
      for (long tag : alone) getChannel().basicAck(tag, false);
    }
  }

  /**
   * The handler's verdict; a retry after {@link Verdicts#AFTER_FAILURE} when it throws or answers
   * nothing.
   */
  private static Verdict verdict(String queue, Bus.Handler handler, Delivery delivery) {
    Throwable failure;
    try {
      Verdict verdict = handler.handle(delivery);
      if (verdict != null) return verdict;
      failure = new NullPointerException("the handler returned no verdict");
    } catch (Throwable t) { // a failing message never stops the consumer, whatever it throws
      failure = t;
    }
    LOG.warn(
        "The handler of queue {} failed on message {} (attempt {}); it comes again in {} ms",
        queue,
        delivery.message().id(),
        delivery.attempt(),
        Verdicts.AFTER_FAILURE.toMillis(),
        failure);
    return new Verdict.Retry(Verdicts.AFTER_FAILURE);
  }

  private void finished(int deliveries) {
    boolean last;
    synchronized (lock) {
      unacked -= deliveries;
      lock.notifyAll();
      last = closed && unacked == 0;
    }
    // a handler that closed its own subscription left the channel open for its ack
    if (last && getChannel().isOpen()) Channels.closeQuietly(getChannel());
  }

  /**
   * Stops deliveries, waits up to the close timeout for handlers in progress (not for the one
   * calling, when a handler closes its own subscription), then closes the channel: what it still
   * holds goes back to the queue, marked redelivered.
   */
  @Override
  public void close() {
    if (closed) return;
    closed = true;
    try {
      if (getChannel().isOpen() && getConsumerTag() != null) {
        synchronized (getChannel()) {
          getChannel().basicCancel(getConsumerTag());
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Cannot cancel the consumer of queue {}; closing its channel", queue, e);
    }
    boolean fromOwnHandler = HANDLING.get() == this;
    awaitIdle(System.nanoTime() + closeTimeout.toNanos());
    if (!fromOwnHandler) Channels.closeQuietly(getChannel());
    onClose.accept(this);
  }

  private void awaitIdle(long deadline) {
    int self = HANDLING.get() == this ? 1 : 0;
    synchronized (lock) {
      while (unacked > self) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          LOG.warn(
              "{} message(s) of queue {} are still in hand after {} ms; they come again",
              unacked - self,
              queue,
              closeTimeout.toMillis());
          return;
        }
        try {
          lock.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
