package io.toa4j.bus.embedded;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.OutageLog;
import io.toa4j.spi.Verdict;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One consumer of one queue: a poller thread that claims due messages while there is room, and
 * handlers that run on the bus's executor and record their verdicts.
 *
 * <p>The poller sleeps on a {@link Signal}, raised when a message is stored in its queue by this
 * bus and when a handler finishes, and otherwise wakes every poll interval to find what nobody told
 * it about: messages due later by the clock, or written by another process.
 *
 * <p>What it holds, and who gives it back on every path, {@code Error} included: a permit of {@link
 * #room} per message taken for a handler, given back when the handler ends ({@code finally}), or at
 * once when no handler thread takes the message (the executor refuses it, or cannot start a thread:
 * an {@code OutOfMemoryError}); a claim per message taken by a poll, released by its verdict's
 * record or, when no handler took it, at once. The poller survives whatever a round throws: it logs
 * it and looks again after the poll interval, so a failure never stops the consumer. Thread-safe.
 */
final class Subscriber implements Bus.Subscription {
  private static final Logger LOG = LoggerFactory.getLogger(Subscriber.class);

  /**
   * The subscriber whose handler runs on this thread, so that closing from a handler does not wait
   * for itself.
   */
  private static final ThreadLocal<Subscriber> HANDLING = new ThreadLocal<>();

  private final String queue;
  private final Bus.Handler handler;
  private final Deliveries deliveries;
  private final Executor executor;
  private final Tuning tuning;
  private final Consumer<Subscriber> onClose;
  private final Semaphore room;
  private final Signal wake = new Signal();
  private final Thread poller;
  private volatile boolean running = true;
  private final OutageLog claiming;
  private final AtomicLong polls = new AtomicLong();

  /** Whether the last poll took every message due (or found none): publishes may claim for it. */
  private volatile boolean caughtUp;

  Subscriber(
      String queue,
      Bus.Handler handler,
      Deliveries deliveries,
      Executor executor,
      Tuning tuning,
      Consumer<Subscriber> onClose) {
    this.queue = queue;
    this.claiming = new OutageLog(LOG, "Claiming from queue " + queue);
    this.handler = handler;
    this.deliveries = deliveries;
    this.executor = executor;
    this.tuning = tuning;
    this.onClose = onClose;
    this.room = new Semaphore(tuning.maxInFlight());
    this.poller = HandlerThreads.daemons("toa-bus-poll-" + queue + "-").newThread(this::poll);
  }

  void start() {
    poller.start();
  }

  String queue() {
    return queue;
  }

  /** Tells the poller there may be something to take. */
  void wake() {
    wake.raise();
  }

  /**
   * Stops, waits up to the close timeout for the handlers in progress (but not for the one calling,
   * when a handler closes its own subscription), and leaves the bus.
   */
  @Override
  public void close() {
    stop();
    awaitIdle(System.nanoTime() + tuning.closeTimeout().toNanos());
    onClose.accept(this);
  }

  /** Stops claiming; handlers in progress go on. */
  void stop() {
    running = false;
    wake.raise();
  }

  /**
   * Waits until the poller ended and no handler runs, or the deadline (of {@link System#nanoTime}).
   */
  void awaitIdle(long deadline) {
    try {
      if (Thread.currentThread() != poller) poller.join(Math.max(1, remainingMillis(deadline)));
      int others = tuning.maxInFlight() - (HANDLING.get() == this ? 1 : 0);
      if (room.tryAcquire(
          others, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        room.release(others);
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.warn(
        "{} handler(s) of queue {} still run after {} ms; their messages come again unless they"
            + " finish while the bus is open",
        tuning.maxInFlight() - room.availablePermits(),
        queue,
        tuning.closeTimeout().toMillis());
  }

  /**
   * Takes room for at most {@code max} messages a publish stores claimed, when this subscription
   * has room and nothing due waits for it: a publish never goes ahead of a backlog.
   *
   * @return how much room was taken: each is either {@link #hand}ed a claim or {@link #giveBack}
   */
  int reserve(int max) {
    if (!running || !caughtUp) return 0;
    int taken = 0;
    while (taken < max && room.tryAcquire()) taken++;
    return taken;
  }

  /**
   * Takes room for one message a publish hands over before storing it, waiting for a handler to
   * finish until {@code deadline} (of {@link System#nanoTime}) when there is none, as long as
   * nothing due waits for this subscription.
   *
   * @return whether room was taken: then the message is {@link #hand(HandOff)}ed
   */
  boolean reserveWithin(long deadline) {
    if (!running || !caughtUp) return false;
    if (room.tryAcquire()) return true;
    try {
      return room.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
          && (running || release());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Says a message of its queue was stored for a poll to take: until a poll has taken every message
   * due, publishes hand it nothing, so that none goes ahead of those waiting.
   */
  void behind() {
    caughtUp = false;
  }

  /** Gives back one room taken and not used; false, for {@link #reserveWithin}. */
  private boolean release() {
    finish();
    return false;
  }

  /** Gives back room taken by {@link #reserve} and not used. */
  void giveBack(int unused) {
    if (unused <= 0) return;
    int before = room.availablePermits();
    room.release(unused);
    if (before == 0) wake.raise(); // the poller may wait for room; otherwise its own wake-ups do
  }

  /**
   * Hands a claimed message to a handler thread, in room already taken; when none takes it, the
   * claim and the room are given back, and the message comes again at a later poll.
   */
  void hand(Claim claim) {
    try {
      executor.execute(() -> handle(claim));
    } catch (RuntimeException | Error e) { // refused (the bus is closing), or no thread could start
      deliveries.release(claim); // the attempt stays counted, as after a crash
      finish();
      if (!(e instanceof RejectedExecutionException)) notHanded(claim.delivery(), e);
    }
  }

  private void notHanded(Delivery delivery, Throwable cause) {
    LOG.warn(
        "No handler of queue {} could start for message {}; it comes again",
        queue,
        delivery.message().id(),
        cause);
  }

  /**
   * Hands a message that is not stored to a handler thread, in room already taken: its verdict goes
   * to the hand-off, and to the verdicts to record only when the publish stored the message claimed
   * before the verdict came.
   *
   * @return false when no handler thread took it (the bus is closing): the room is given back
   */
  boolean hand(HandOff handOff) {
    try {
      executor.execute(() -> handle(handOff));
      return true;
    } catch (RuntimeException
        | Error e) { // refused, or no thread could start: the publish stores it
      finish();
      if (!(e instanceof RejectedExecutionException)) notHanded(handOff.delivery(), e);
      return false;
    }
  }

  private void handle(HandOff handOff) {
    HANDLING.set(this);
    try {
      Verdict verdict = verdict(handOff.delivery());
      handOff.answered(verdict).ifPresent(claim -> deliveries.settle(claim, verdict));
    } finally {
      HANDLING.remove();
      room.release();
      // the poller needs to hear of the room only when messages wait for it; else its interval
      // finds them
      if (!caughtUp) wake.raise();
    }
  }

  /**
   * How many times it has looked for messages: once per signal or poll interval, while it has room.
   */
  long polls() {
    return polls.get();
  }

  private void poll() {
    int taken = 0;
    while (running) {
      int free = room.availablePermits();
      try {
        // after a poll that found nothing, the next one looks before it claims
        taken = free > 0 ? dispatch(free, taken == 0) : taken;
      } catch (RuntimeException | Error e) { // whatever a round throws, the consumer goes on
        caughtUp = false;
        taken = 0;
        LOG.error(
            "A poll of queue {} failed; it looks again in {} ms",
            queue,
            tuning.pollInterval().toMillis(),
            e);
      }
      if (running && (free == 0 || taken < free)) wake.await(tuning.pollInterval());
    }
  }

  /** Claims up to {@code free} messages and hands each to a handler thread. */
  private int dispatch(int free, boolean look) {
    List<Claim> claims;
    try {
      claims = deliveries.claim(queue, free, look);
      claiming.succeeded();
    } catch (RuntimeException
        | Error e) { // an Error too: the claim's transaction rolled back, nothing is held
      caughtUp = false;
      polls.incrementAndGet();
      if (!running) return 0;
      claiming.failed(e); // one WARN, then quiet until a claim works, which is one INFO
      return 0;
    }
    caughtUp = claims.size() < free; // took all that was due: a publish may claim for it from now
    polls.incrementAndGet();
    for (Claim claim : claims) {
      // it saw enough room; a publish may have taken some since, for handlers that end soon
      room.acquireUninterruptibly();
      hand(claim);
    }
    return claims.size();
  }

  /**
   * Runs the handler and hands its verdict over to be recorded, which releases the claim once it
   * is; the handler's room is free again at once, unless this thread is the one recording verdicts.
   */
  private void handle(Claim claim) {
    HANDLING.set(this);
    try {
      deliveries.settle(claim, verdict(claim.delivery()));
    } finally {
      HANDLING.remove();
      finish();
    }
  }

  /** The handler's verdict; a retry after a short delay when it throws or answers nothing. */
  private Verdict verdict(Delivery delivery) {
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
        Deliveries.AFTER_FAILURE.toMillis(),
        failure);
    return new Verdict.Retry(Deliveries.AFTER_FAILURE);
  }

  private void finish() {
    room.release();
    wake.raise();
  }

  private static long remainingMillis(long deadline) {
    return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
  }
}
