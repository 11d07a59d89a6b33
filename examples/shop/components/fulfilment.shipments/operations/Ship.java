package fulfilment.shipments.operations;

import fulfilment.shipments.Shipment;
import io.toa4j.api.Refusal;
import io.toa4j.api.Transition;

/** Ships a packed parcel. Said again, it is answered as a success and nothing is written. */
public class Ship implements Transition<Ship.Input, Shipment> {
  public record Input(String carrier) {}

  @Override
  public Object transition(Input input, Shipment entry) {
    if ("shipped".equals(entry.status)) {
      entry.discard(); // said again: nothing is written, nothing is announced
      return entry;
    }
    if (!"packed".equals(entry.status)) return Refusal.of("NOT_PACKED");
    entry.status = "shipped";
    entry.carrier = input.carrier();
    return entry;
  }
}
