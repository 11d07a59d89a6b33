package plant.orders.operations;

import io.toa4j.api.Transition;
import plant.orders.Order;

/** Places an order: sets what was ordered, a state to reach. */
public class Place implements Transition<Place.Input, Order> {
  public record Input(String item) {}

  @Override
  public Object transition(Input input, Order entry) {
    entry.item = input.item();
    return entry;
  }
}
