package io.toa4j.tck.bus;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Verdict;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A handler that keeps every delivery, with the moment it came, and answers as the test tells it.
 * Thread-safe.
 */
final class Recorder implements Bus.Handler {
  /** A delivery and when it was handed over, by {@link System#nanoTime()}. */
  record Seen(Delivery delivery, long nanos) {}

  private final List<Seen> seen = new CopyOnWriteArrayList<>();
  private final Function<Delivery, Verdict> answer;

  Recorder() {
    this(d -> Verdict.DONE);
  }

  Recorder(Function<Delivery, Verdict> answer) {
    this.answer = answer;
  }

  @Override
  public Verdict handle(Delivery delivery) {
    seen.add(new Seen(delivery, System.nanoTime()));
    return answer.apply(delivery);
  }

  List<Seen> seen() {
    return List.copyOf(seen);
  }

  Delivery first() {
    return seen.get(0).delivery();
  }

  int count() {
    return seen.size();
  }

  List<Integer> attempts() {
    return seen.stream().map(s -> s.delivery().attempt()).toList();
  }
}
