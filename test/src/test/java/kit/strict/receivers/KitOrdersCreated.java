package kit.strict.receivers;

import io.toa4j.api.Receiver;
import io.toa4j.api.Request;
import java.util.Map;

/** A placed order is taken by the record kept under the order's id. */
public class KitOrdersCreated implements Receiver<KitOrdersCreated.Order> {
  public record Order(String id, String item) {}

  @Override
  public Request request(Order order) {
    return Request.of(order.id(), Map.of("item", order.item()));
  }
}
