package kit.orders.operations;

import io.toa4j.api.Transition;
import kit.orders.Order;

/** Changes what an order is for: an update, announced though no receiver consumes it. */
public class Rename implements Transition<Rename.Input, Order> {
  public record Input(String item) {}

  @Override
  public Object transition(Input input, Order entry) {
    entry.item = input.item();
    return entry;
  }
}
