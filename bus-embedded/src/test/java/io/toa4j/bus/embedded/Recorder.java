package io.toa4j.bus.embedded;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Verdict;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A handler that keeps every delivery and answers as the test tells it. Thread-safe. */
final class Recorder implements Bus.Handler {
  private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  private final Function<Delivery, Verdict> answer;

  Recorder() {
    this(d -> Verdict.DONE);
  }

  Recorder(Function<Delivery, Verdict> answer) {
    this.answer = answer;
  }

  @Override
  public Verdict handle(Delivery delivery) {
    deliveries.add(delivery);
    return answer.apply(delivery);
  }

  List<Delivery> deliveries() {
    return List.copyOf(deliveries);
  }

  int count() {
    return deliveries.size();
  }

  List<Integer> attempts() {
    return deliveries.stream().map(Delivery::attempt).toList();
  }

  List<String> ids() {
    return deliveries.stream().map(d -> d.message().id()).toList();
  }
}
