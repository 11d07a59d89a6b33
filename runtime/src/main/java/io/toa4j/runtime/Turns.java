package io.toa4j.runtime;

import io.toa4j.api.Failure;
import io.toa4j.spi.StoredRecord;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The calls of one process that write the same record take turns on it, in the order they asked.
 *
 * <p>Without turns, callers of one record read the same version, run, and all but one lose the
 * compare-and-swap, to back off and run again: on a hot record most of the work is thrown away and
 * the wait is the backoff's, not the record's. With turns, the next call reads the record only once
 * the one before it committed, so within one process it never loses the swap: the record goes as
 * fast as its commits, in order.
 *
 * <p>A call that commits hands the record as it wrote it to the next in line ({@link Turn#hand}),
 * so a call that waited runs on it without reading it again: its turn is its run and its commit.
 * What it would have read beside the record (its call's answer, for {@code once}) it looks up while
 * it waits ({@link #take(String, Runnable)}).
 *
 * <p>A turn is an optimisation, never the guarantee: the compare-and-swap still decides every
 * write, so writers in other processes, and a call that waited past the wait given and went on
 * without its turn, race as they would without turns (and a handed record they made stale loses the
 * swap, and is read again). The wait is bounded so that a call that needs a second call on its own
 * record to finish first (through the bus, on another thread) is not held forever: the two race
 * instead. A nested call on the same record in the same thread takes the turn it already holds.
 *
 * <p>A line per record exists only while a call holds or waits for its turn: an idle record costs
 * nothing.
 *
 * <p>The protocol, per record. A {@code Line} (a fair lock, the turn, and a count of the calls
 * holding or waiting for it) exists while its count is above zero. A call <b>joins</b> (count + 1,
 * inside the map's compute for the key, which makes the line when there is none), then either
 * <b>holds</b> the turn (the lock, at once or after waiting) or <b>gives up</b> — its wait over, an
 * interrupt, or a failure in what it does before waiting, {@code Error} included — and then
 * <b>leaves</b> at once (count − 1, inside the same compute, which removes the line at zero). A
 * holder leaves when it closes its turn (unlock, then leave), which callers do in a {@code
 * finally}. So every path out of {@link #take} returns a turn whose {@code close} leaves, or has
 * left already; only a holder writes the record it hands on. Checked with Lincheck's model checker.
 * Thread-safe.
 */
final class Turns {
  private final ConcurrentHashMap<String, Line> lines = new ConcurrentHashMap<>();
  private final long waitNanos;

  /** The calls holding or waiting for one record's turn. */
  private static final class Line {
    final ReentrantLock turn = new ReentrantLock(true); // fair: turns are given in the order asked
    int calls; // holding or waiting; read and written only inside the map's compute for the key
    StoredRecord
        committed; // read and written only by the holder: the record as the last commit left it
  }

  /** A turn held until closed; closing it gives the record to the next call in line. */
  interface Turn extends AutoCloseable {
    /**
     * The record as the last call in line committed it, when this call waited for its turn (and so
     * looked up what it reads beside the record meanwhile); empty otherwise.
     */
    Optional<StoredRecord> handed();

    /**
     * Leaves the record as this call committed it for the next call in line; {@code null}: nothing.
     */
    void hand(StoredRecord committed);

    /** Gives the turn to the next call in line; closing it again does nothing. */
    @Override
    void close();
  }

  /** No turn: a call that creates its record, or that waited past the bound. */
  static final Turn NONE =
      new Turn() {
        @Override
        public Optional<StoredRecord> handed() {
          return Optional.empty();
        }

        @Override
        public void hand(StoredRecord committed) {}

        @Override
        public void close() {}
      };

  /**
   * @param wait how long a call waits for its turn before it goes on without one; zero: never waits
   */
  Turns(Duration wait) {
    this.waitNanos =
        TimeUnit.NANOSECONDS.convert(wait); // saturates: a wait of centuries is Long.MAX_VALUE
  }

  /**
   * Takes the record's turn: at once when nobody holds it or waits for it; else runs {@code
   * beforeWaiting} and waits, at most the wait given at construction. {@link #NONE} if the wait ran
   * out (the call races for the record instead).
   *
   * @param record the record, as the component's label and the record's id make it unique
   * @throws Failure {@code SYSTEM} when the thread is interrupted while it waits
   */
  Turn take(String record, Runnable beforeWaiting) {
    Line line =
        lines.compute(
            record,
            (key, present) -> {
              Line joined = present == null ? new Line() : present;
              joined.calls++;
              return joined;
            });
    boolean taken = false;
    boolean waited = false;
    try {
      taken =
          line.turn.tryLock(
              0, TimeUnit.NANOSECONDS); // fair, unlike tryLock(): never ahead of a waiting call
      if (!taken) {
        waited = true;
        beforeWaiting.run();
        taken = line.turn.tryLock(waitNanos, TimeUnit.NANOSECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(
          Failure.Code.SYSTEM, "interrupted while waiting for its turn on record " + record, e);
    } finally {
      if (!taken) leave(record);
    }
    if (!taken) return NONE;
    boolean handedOver =
        waited && line.turn.getHoldCount() == 1; // a nested call of the holder reads for itself
    return new Turn() {
      @Override
      public Optional<StoredRecord> handed() {
        return handedOver ? Optional.ofNullable(line.committed) : Optional.empty();
      }

      @Override
      public void hand(StoredRecord committed) {
        line.committed = committed;
      }

      /** Read and written only by the holder's thread, the one that may unlock the turn. */
      private boolean closed;

      @Override
      public void close() {
        if (closed) return; // a second close would give up a hold of the same thread, or throw
        closed = true;
        try {
          line.turn.unlock();
        } finally {
          leave(record);
        }
      }
    };
  }

  /** Takes the record's turn, waiting with nothing to do meanwhile. */
  Turn take(String record) {
    return take(record, () -> {});
  }

  /** How many calls hold or wait for the record's turn. */
  int calls(String record) {
    Line line = lines.get(record);
    return line == null ? 0 : line.turn.getQueueLength() + (line.turn.isLocked() ? 1 : 0);
  }

  /** How many records have a line: calls holding or waiting for their turn. */
  int records() {
    return lines.size();
  }

  private void leave(String record) {
    lines.computeIfPresent(record, (key, line) -> --line.calls == 0 ? null : line);
  }
}
