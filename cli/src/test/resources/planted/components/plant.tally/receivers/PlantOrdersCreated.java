package plant.tally.receivers;

import io.toa4j.api.Receiver;
import io.toa4j.api.Request;
import java.util.Map;

/** A placed order bumps the tally kept under the order's id. */
public class PlantOrdersCreated implements Receiver<PlantOrdersCreated.Order> {
  public record Order(String id, String item) {}

  @Override
  public Request request(Order order) {
    return Request.of(order.id(), Map.of("item", order.item()));
  }
}
