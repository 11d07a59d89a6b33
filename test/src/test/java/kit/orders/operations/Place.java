package kit.orders.operations;

import io.toa4j.api.Transition;
import kit.orders.Order;

/** Places an order once: placing it again finds it placed and changes nothing. */
public class Place implements Transition<Place.Input, Order> {
  public record Input(String item) {}

  @Override
  public Object transition(Input input, Order entry) {
    if (entry.item != null) {
      entry.discard();
      return entry;
    }
    entry.item = input.item();
    return entry;
  }
}
