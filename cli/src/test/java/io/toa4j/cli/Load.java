package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Clients of the shop that credit wallets until stopped, each call with an identity of its own, and
 * each call that fails (a timeout, nobody hosting its component for a moment) repeated unchanged
 * under the same identity until it is answered, as a real client does.
 *
 * <p>It keeps what it was answered: for each wallet, the sum and the count of the distinct credits
 * it asked for, which is what the wallet must hold once the events have been handled.
 */
final class Load implements AutoCloseable {
  /** What the clients call. */
  enum Mix {
    /** {@code billing.topups.record}, each paid top-up crediting its wallet through the event. */
    TOPUPS,
    /** Top-ups and direct {@code billing.wallets.credit} calls over request/reply, in turn. */
    TOPUPS_AND_CREDITS
  }

  /** How long one call may be repeated before the client gives up and the test fails. */
  static final Duration CALL_DEADLINE = Duration.ofSeconds(100);

  private final io.toa4j.runtime.Toa client;
  private final Mix mix;
  private final int wallets;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicLong answered = new AtomicLong();
  private final LongAdder repeats = new LongAdder();
  private final Map<String, long[]> expected = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
  private final List<Thread> threads = new ArrayList<>();
  private long mark;
  private volatile boolean abandoned;

  /**
   * Starts the clients.
   *
   * @param wallets how many wallets the credits spread over; 0 for a wallet of its own per credit
   */
  Load(io.toa4j.runtime.Toa client, int clients, Mix mix, int wallets) {
    this.client = client;
    this.mix = mix;
    this.wallets = wallets;
    for (int t = 0; t < clients; t++) {
      int thread = t;
      Thread worker = new Thread(() -> work(thread), "load-" + t);
      worker.setDaemon(true);
      threads.add(worker);
      worker.start();
    }
  }

  /** Waits until the clients were answered this many more calls than when it last returned. */
  void awaitProgress(long calls) {
    long target = mark + calls;
    await()
        .atMost(CALL_DEADLINE)
        .until(
            () -> {
              if (!errors.isEmpty()) throw new AssertionError("a client failed", errors.peek());
              return answered.get() >= target;
            });
    mark = answered.get();
  }

  /** Stops the clients once each has its current call answered; fails if one gave up. */
  void stop() throws InterruptedException {
    if (stopping.getAndSet(true)) throw new IllegalStateException("stopped already");
    for (Thread thread : threads) {
      thread.join(CALL_DEADLINE.plusSeconds(10).toMillis());
      assertThat(thread.isAlive()).as("%s ended", thread.getName()).isFalse();
    }
    if (!errors.isEmpty()) throw new AssertionError("a client failed", errors.peek());
  }

  /** Calls answered so far. */
  long answered() {
    return answered.get();
  }

  /** Calls repeated after a failure so far. */
  long repeats() {
    return repeats.sum();
  }

  /** Each wallet the clients credited: the sum of its distinct credits and how many there were. */
  Map<String, long[]> expected() {
    return new TreeMap<>(expected);
  }

  /**
   * Abandons the clients when the test ended before {@link #stop()} (it failed): they give up their
   * calls rather than repeat them against hosts that are going away.
   */
  @Override
  public void close() {
    if (stopping.getAndSet(true)) return;
    abandoned = true;
    threads.forEach(Thread::interrupt);
  }

  private void work(int thread) {
    try {
      for (long i = 0; !stopping.get(); i++) {
        long amount = ThreadLocalRandom.current().nextLong(1, 100);
        String key = String.format("%04x%012x", thread, i);
        String wallet =
            wallets == 0
                ? String.format("c0ffee%010x%s", 0, key)
                : String.format("%032x", 0xC0FFEE0000L + i % wallets);
        if (mix == Mix.TOPUPS || i % 2 == 0) {
          String checkout = "chk-" + key;
          Map<String, Object> input =
              Map.of("checkout", checkout, "customer", wallet, "amount", amount, "currency", "EUR");
          callUntilAnswered(
              "billing.topups.record",
              Request.of(Query.id(String.format("7070%012x%s", 0, key)), input),
              "record-" + key);
        } else {
          Map<String, Object> input =
              Map.of("amount", amount, "type", "goodwill", "ref", "g-" + key);
          callUntilAnswered(
              "billing.wallets.credit", Request.of(Query.id(wallet), input), "credit-" + key);
        }
        expected.merge(
            wallet, new long[] {amount, 1}, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
        answered.incrementAndGet();
      }
    } catch (Throwable e) {
      errors.add(e);
    }
  }

  private void callUntilAnswered(String endpoint, Request request, String identity) {
    long deadline = System.nanoTime() + CALL_DEADLINE.toNanos();
    Failure last = null;
    while (System.nanoTime() < deadline && !abandoned) {
      try {
        Reply reply = client.call(endpoint, request, identity);
        if (reply instanceof Reply.Output) return;
        throw new AssertionError(endpoint + " under " + identity + " was refused: " + reply);
      } catch (Failure e) {
        last = e; // may have run: the same call again, under the same identity
        repeats.increment();
        pause();
      }
    }
    throw new AssertionError(
        endpoint
            + " under "
            + identity
            + (abandoned ? " abandoned" : " unanswered for " + CALL_DEADLINE),
        last);
  }

  /** A client's pause before repeating, so a host's restart is not met with a storm of calls. */
  private static void pause() {
    java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
  }
}
