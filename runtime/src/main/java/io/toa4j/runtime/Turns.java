package io.toa4j.runtime;

import io.toa4j.api.Failure;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The calls of one process that write the same record take turns on it, in the order they asked.
 *
 * <p>Without turns, callers of one record read the same version, run, and all but one lose the
 * compare-and-swap, to back off and run again: on a hot record most of the work is thrown away and
 * the wait is the backoff's, not the record's. With turns, the next call reads the record only
 * once the one before it committed, so within one process it never loses the swap: the record
 * goes as fast as its commits, in order.
 *
 * <p>A turn is an optimisation, never the guarantee: the compare-and-swap still decides every
 * write, so writers in other processes, and a call that waited past {@code wait} and went on
 * without its turn, race as they would without turns and retry under {@code concurrency: retry}.
 * The wait is bounded so that a call that needs a second call on its own record to finish first
 * (through the bus, on another thread) is not held forever: the two race instead. A nested call on
 * the same record in the same thread takes the turn it already holds.
 *
 * <p>A line per record exists only while a call holds or waits for its turn: an idle record costs
 * nothing. Thread-safe.
 */
final class Turns {
  private final ConcurrentHashMap<String, Line> lines = new ConcurrentHashMap<>();
  private final long waitNanos;

  /** The calls holding or waiting for one record's turn. */
  private static final class Line {
    final ReentrantLock turn = new ReentrantLock(true); // fair: turns are given in the order asked
    int calls; // holding or waiting; read and written only inside the map's compute for the key
  }

  /** A turn held until closed; closing it gives the record to the next call in line. */
  interface Turn extends AutoCloseable {
    @Override
    void close();
  }

  private static final Turn NONE = () -> {};

  /** @param wait how long a call waits for its turn before it goes on without one; zero: never waits */
  Turns(Duration wait) {
    this.waitNanos = TimeUnit.NANOSECONDS.convert(wait); // saturates: a wait of centuries is Long.MAX_VALUE
  }

  /**
   * Waits for the record's turn, at most the wait given at construction; a turn that does nothing when closed if the
   * wait ran out (the call races for the record instead).
   *
   * @param record the record, as the component's label and the record's id make it unique
   * @throws Failure {@code SYSTEM} when the thread is interrupted while it waits
   */
  Turn take(String record) {
    Line line = lines.compute(record, (key, present) -> {
      Line joined = present == null ? new Line() : present;
      joined.calls++;
      return joined;
    });
    boolean taken = false;
    try {
      taken = line.turn.tryLock(waitNanos, TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(Failure.Code.SYSTEM, "interrupted while waiting for its turn on record " + record, e);
    } finally {
      if (!taken) leave(record);
    }
    if (!taken) return NONE;
    return () -> {
      line.turn.unlock();
      leave(record);
    };
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
