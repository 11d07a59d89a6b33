package io.toa4j.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When calls completed, and when faults were on: enough to tell the longest stall, the longest time
 * no call completed, and how much of it lies beyond the faults themselves. Thread-safe.
 */
final class Progress {
  /** A time no call completed. */
  record Gap(long from, long to) {}

  /**
   * A fault, from its start until what it took away was back (a server listening, a link healed).
   */
  record Window(String fault, long from, long to) {}

  private static final long NOTED = 250_000_000L; // shorter gaps are just calls being made

  private final AtomicLong last = new AtomicLong(System.nanoTime());
  private final AtomicLong completed = new AtomicLong();
  private final List<Gap> gaps = new ArrayList<>();
  private final List<Window> windows = new ArrayList<>();
  private volatile boolean measuring = true;

  /** A call was answered. */
  void completed() {
    long now = System.nanoTime();
    long before = last.getAndSet(now);
    completed.incrementAndGet();
    if (measuring && now - before > NOTED) {
      synchronized (gaps) {
        gaps.add(new Gap(before, now));
      }
    }
  }

  long count() {
    return completed.get();
  }

  /** Stops noting gaps: the load winds down, and so do the calls. */
  void stopMeasuring() {
    measuring = false;
  }

  void fault(String fault, long from, long to) {
    synchronized (windows) {
      windows.add(new Window(fault, from, to));
    }
  }

  /** The faults so far, in the order they began. */
  List<Window> windows() {
    synchronized (windows) {
      return List.copyOf(windows);
    }
  }

  /** The fault last begun before {@code at} (System.nanoTime()), if any. */
  Optional<String> faultBefore(long at) {
    Optional<String> before = Optional.empty();
    synchronized (windows) {
      for (Window w : windows) if (w.from() <= at) before = Optional.of(w.fault());
    }
    return before;
  }

  /** The longest time no call completed, in nanoseconds, and the fault last begun before it. */
  Stall longest() {
    return worst(false);
  }

  /** The longest time no call completed beyond the faults' own windows, and the fault before it. */
  Stall longestBeyondFaults() {
    return worst(true);
  }

  /** A stall: its length, and the fault begun last before its end, if any. */
  record Stall(long nanos, Optional<String> after) {}

  private Stall worst(boolean beyondFaults) {
    List<Gap> noted;
    List<Window> faults;
    synchronized (gaps) {
      noted = new ArrayList<>(gaps);
    }
    synchronized (windows) {
      faults = new ArrayList<>(windows);
    }
    Stall worst = new Stall(0, Optional.empty());
    for (Gap gap : noted) {
      long length = gap.to() - gap.from();
      Optional<String> after = Optional.empty();
      for (Window w : faults) {
        if (w.from() < gap.to()) after = Optional.of(w.fault());
        if (beyondFaults)
          length -= Math.max(0, Math.min(gap.to(), w.to()) - Math.max(gap.from(), w.from()));
      }
      if (length > worst.nanos()) worst = new Stall(length, after);
    }
    return worst;
  }
}
