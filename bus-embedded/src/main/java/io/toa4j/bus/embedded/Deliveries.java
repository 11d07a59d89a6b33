package io.toa4j.bus.embedded;

import io.toa4j.spi.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due messages for handlers and records their verdicts.
 *
 * <p>Design notes. A claim is a row number in {@link #claimed}, in this process's memory only; the
 * file knows nothing of it. Invariants:
 *
 * <ol>
 *   <li>A row is in {@code claimed} from the moment its attempt is counted until its verdict is
 *       recorded (or given up), so no two handlers of this bus hold it at once. Claiming filters
 *       and adds under {@link #claiming}, after the attempt's transaction committed; releasing
 *       needs no lock.
 *   <li>The attempt is counted on disk before the handler runs. A crash (or a close that gives up
 *       waiting) between the two leaves the row pending, due, with its attempt counted: the next
 *       process to consume delivers it again with a higher attempt. Nothing needs recovering on
 *       open, since no claim was ever written.
 *   <li>Only the consuming bus (see {@link ConsumerLock}) deletes, postpones or parks rows, so a
 *       claimed row changes under a handler only through that handler's verdict. Other buses on the
 *       file only add rows, or turn parked rows back into pending ones.
 * </ol>
 *
 * <p>Thread-safe.
 */
final class Deliveries {
  /** How long a message whose handler threw waits, by the bus's clock, before it comes again. */
  static final Duration AFTER_FAILURE = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(Deliveries.class);

  private final MessageTable table;
  private final Clock clock;
  private final Set<Long> claimed = ConcurrentHashMap.newKeySet();
  private final ReentrantLock claiming = new ReentrantLock();

  Deliveries(MessageTable table, Clock clock) {
    this.table = table;
    this.clock = clock;
  }

  /** Claims at most {@code max} due messages of the queue, counting an attempt for each. */
  List<Claim> claim(String queue, int max) {
    long now = clock.millis();
    // A read first, so that an idle poll never takes the file's write lock.
    List<Long> due = new ArrayList<>(table.due(queue, now, max, claimed));
    if (due.isEmpty()) return List.of();
    claiming.lock();
    try {
      due.removeIf(claimed::contains);
      if (due.isEmpty()) return List.of();
      List<Claim> claims = table.claim(due, now);
      claims.forEach(c -> claimed.add(c.seq()));
      return claims;
    } finally {
      claiming.unlock();
    }
  }

  /**
   * Records the verdict durably. When the bus was closed meanwhile, records nothing: the message
   * stays pending with its attempt counted, as after a crash.
   */
  void settle(Claim claim, Verdict verdict) {
    try {
      record(claim.seq(), verdict);
    } catch (Database.Closed e) {
      LOG.info(
          "The bus closed before the verdict on message {} of queue {} was recorded; it will be"
              + " delivered again (attempt {} counted)",
          claim.delivery().message().id(),
          claim.delivery().queue(),
          claim.delivery().attempt());
    }
  }

  /** Lets the row be claimed again; after {@link #settle}, or when it could not be dispatched. */
  void release(Claim claim) {
    claimed.remove(claim.seq());
  }

  private void record(long seq, Verdict verdict) {
    if (verdict instanceof Verdict.Retry retry) {
      table.postpone(seq, dueAfter(retry.delay()), clock.millis());
    } else if (verdict instanceof Verdict.Park park) {
      table.park(seq, park.code(), park.reason(), clock.millis());
    } else {
      table.delete(seq);
    }
  }

  private long dueAfter(Duration delay) {
    long now = clock.millis();
    if (delay.isNegative()) return now;
    try {
      return Math.addExact(now, delay.toMillis());
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
