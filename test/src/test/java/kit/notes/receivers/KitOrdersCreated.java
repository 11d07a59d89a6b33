package kit.notes.receivers;

import io.toa4j.api.Receiver;
import io.toa4j.api.Request;
import java.util.Map;

/** A placed order is noted in a new note, its id minted by the runtime. */
public class KitOrdersCreated implements Receiver<KitOrdersCreated.Order> {
  public record Order(String item) {}

  @Override
  public Request request(Order order) {
    return Request.input(Map.of("item", order.item()));
  }
}
