package io.toa4j.bus.embedded;

import io.toa4j.spi.Combiner;
import io.toa4j.spi.Message;
import io.toa4j.spi.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due messages for handlers and records their verdicts, many in one transaction.
 *
 * <p>Design notes. A claim is a row number in {@link #claimed}, in this process's memory only; the
 * file knows nothing of it. Invariants:
 *
 * <ol>
 *   <li>A row is in {@code claimed} from the moment its attempt is counted until its verdict is
 *       recorded (or given up), so no two handlers of this bus hold it at once. Claiming picks the
 *       rows and adds them under {@link #claiming}, after the attempt's transaction committed;
 *       releasing needs no lock.
 *   <li>A publish may claim as it stores: a message for a subscription of this bus with room is
 *       stored with its first attempt counted, in the publish's own transaction, and added to
 *       {@code claimed} under {@link #claiming} before the lock is let go, so no poll takes it
 *       meanwhile. It is then exactly a claimed row, as if a poll had taken it.
 *   <li>The attempt is counted in the file before the handler runs (committed without an fsync when
 *       a poll claims it: a power loss may take the count back, never a crash of the process). A
 *       crash (or a close that gives up waiting) between the two leaves the row pending, due, with
 *       its attempt counted: the next process to consume delivers it again with a higher attempt.
 *       Nothing needs recovering on open, since no claim was ever written.
 *   <li>Only the consuming bus (see {@link ConsumerLock}) deletes, postpones or parks rows, so a
 *       claimed row changes under a handler only through that handler's verdict. Other buses on the
 *       file only add rows, or turn parked rows back into pending ones.
 *   <li>Verdicts wait in {@link #verdicts} for the one thread that writes them ({@link #writing},
 *       the flag-and-recheck protocol of {@link Combiner}): the handler that finds no other writing
 *       writes every waiting verdict, in batches of one transaction each, until none waits; the
 *       others leave theirs to it. A batch that fails, {@code Error} included, releases its claims
 *       (its messages come again) and the writer goes on with the next; the first failure is thrown
 *       to the writer's handler once none waits, so no verdict is left waiting with its row
 *       claimed. A row's claim is released only after its verdict's transaction, so it cannot be
 *       claimed again while its verdict waits. The writer runs inside its handler, which keeps the
 *       writer's subscription busy until all is written; so once a bus's handlers are idle, no
 *       verdict waits.
 * </ol>
 *
 * <p>Thread-safe.
 */
final class Deliveries {
  /** How long a message whose handler threw waits, by the bus's clock, before it comes again. */
  static final Duration AFTER_FAILURE = Duration.ofSeconds(1);

  /** The most verdicts one transaction records. */
  static final int BATCH = 256;

  private static final Logger LOG = LoggerFactory.getLogger(Deliveries.class);

  private final MessageTable table;
  private final Recording recording;
  private final Clock clock;
  private final Set<Long> claimed = ConcurrentHashMap.newKeySet();
  private final ReentrantLock claiming = new ReentrantLock();
  private final Queue<Settled> verdicts = new ConcurrentLinkedQueue<>();
  private final Combiner writing = Combiner.inline(this::write);
  private final AtomicLong handed = new AtomicLong();
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong transactions = new AtomicLong();
  private final AtomicLong claimedAsStored = new AtomicLong();

  /**
   * Where a batch of verdicts is recorded: the table's {@link MessageTable#settle}, or a test's
   * around it.
   */
  interface Recording {
    void settle(
        Collection<Long> handled,
        List<MessageTable.Postponed> postponed,
        List<MessageTable.Parking> parked);
  }

  Deliveries(MessageTable table, Clock clock) {
    this(table, clock, table::settle);
  }

  Deliveries(MessageTable table, Clock clock, Recording recording) {
    this.table = table;
    this.clock = clock;
    this.recording = recording;
  }

  /**
   * Claims at most {@code max} due messages of the queue, counting an attempt for each.
   *
   * @param look whether to look first with a read, so that a poll that finds nothing never takes
   *     the file's write lock; a consumer that found messages at its last poll goes straight to the
   *     claim
   */
  List<Claim> claim(String queue, int max, boolean look) {
    long now = clock.millis();
    if (look && !table.anyDue(queue, now, claimed)) return List.of();
    claiming.lock();
    try {
      List<Claim> claims = table.claim(queue, now, max, List.copyOf(claimed));
      claims.forEach(c -> claimed.add(c.seq()));
      return claims;
    } finally {
      claiming.unlock();
    }
  }

  /**
   * Stores the events in the queues bound to their labels, claiming at most {@code room} of the
   * messages per queue as they are stored (one transaction for all).
   */
  MessageTable.Stored publish(List<Message> events, Map<String, Integer> room) {
    if (room.isEmpty()) return table.publish(events, clock.millis(), room);
    claiming.lock();
    try {
      MessageTable.Stored stored = table.publish(events, clock.millis(), room);
      stored.claimed().forEach(c -> claimed.add(c.seq()));
      claimedAsStored.addAndGet(stored.claimed().size());
      return stored;
    } finally {
      claiming.unlock();
    }
  }

  /**
   * Stores the rows in one durable transaction; those with an attempt and neither due later nor
   * parked (handed to a handler before they were stored, still being handled) stored claimed, so
   * that no poll takes them while their handler runs.
   *
   * @return each row's seq, or null where its queue held the message already
   */
  List<Long> store(List<MessageTable.Row> rows) {
    long now = clock.millis();
    if (rows.stream().noneMatch(MessageTable.Row::held)) return table.store(rows, now);
    claiming.lock();
    try {
      List<Long> seqs = table.store(rows, now);
      for (int i = 0; i < rows.size(); i++) {
        if (seqs.get(i) != null && rows.get(i).held()) claimed.add(seqs.get(i));
      }
      return seqs;
    } finally {
      claiming.unlock();
    }
  }

  long now() {
    return clock.millis();
  }

  /** How many messages were claimed as they were published (for tests). */
  long claimedAsStored() {
    return claimedAsStored.get();
  }

  /**
   * Records the verdict durably, with the others waiting, then lets the rows be claimed again.
   * Returns at once when another thread is writing verdicts: that one records this verdict too.
   * When the bus was closed meanwhile, records nothing: the message stays pending with its attempt
   * counted, as after a crash.
   */
  void settle(Claim claim, Verdict verdict) {
    handed.incrementAndGet();
    verdicts.add(new Settled(claim, verdict, clock.millis()));
    writing
        .request(); // writes now, or leaves it to the thread writing, which sees it before it stops
  }

  /** Lets the row be claimed again, when it could not be dispatched. */
  void release(Claim claim) {
    claimed.remove(claim.seq());
  }

  /** How many verdicts handlers have handed over (for tests). */
  long handed() {
    return handed.get();
  }

  /** How many of the verdicts handed over are written, or were given up (for tests). */
  long done() {
    return done.get();
  }

  /** How many transactions have recorded verdicts (for tests). */
  long transactions() {
    return transactions.get();
  }

  /** A handler's verdict on its claim, and when it was given. */
  private record Settled(Claim claim, Verdict verdict, long at) {}

  /**
   * Writes every waiting verdict; a batch that throws leaves the others to be written, and its
   * failure thrown at the end.
   */
  private void write() {
    List<Settled> batch = new ArrayList<>();
    Error failure = null;
    while (true) {
      batch.clear();
      for (Settled s; batch.size() < BATCH && (s = verdicts.poll()) != null; ) batch.add(s);
      if (batch.isEmpty()) break;
      try {
        record(batch);
        transactions.incrementAndGet();
      } catch (Database.Closed e) {
        for (Settled s : batch) {
          LOG.info(
              "The bus closed before the verdict on message {} of queue {} was recorded; it will be"
                  + " delivered again (attempt {} counted)",
              s.claim().delivery().message().id(),
              s.claim().delivery().queue(),
              s.claim().delivery().attempt());
        }
      } catch (RuntimeException e) {
        LOG.warn(
            "Cannot record the verdicts on {} message(s), the first {} of queue {}; they will be delivered again",
            batch.size(),
            batch.get(0).claim().delivery().message().id(),
            batch.get(0).claim().delivery().queue(),
            e);
      } catch (Error e) { // its messages come again; the next batches are written all the same
        if (failure == null) failure = e;
      } finally {
        batch.forEach(s -> claimed.remove(s.claim().seq()));
        done.addAndGet(batch.size());
      }
    }
    if (failure != null) throw failure;
  }

  private void record(List<Settled> batch) {
    List<Long> handled = new ArrayList<>();
    List<MessageTable.Postponed> postponed = new ArrayList<>();
    List<MessageTable.Parking> parked = new ArrayList<>();
    for (Settled s : batch) {
      long seq = s.claim().seq();
      if (s.verdict() instanceof Verdict.Retry retry) {
        postponed.add(new MessageTable.Postponed(seq, dueAfter(s.at(), retry.delay()), s.at()));
      } else if (s.verdict() instanceof Verdict.Park park) {
        parked.add(new MessageTable.Parking(seq, park.code(), park.reason(), s.at()));
      } else {
        handled.add(seq);
      }
    }
    recording.settle(handled, postponed, parked);
  }

  static long dueAfter(long now, Duration delay) {
    if (delay.isNegative()) return now;
    try {
      return Math.addExact(now, delay.toMillis());
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
