package fulfilment.shipments.operations;

import fulfilment.shipments.Shipment;
import io.toa4j.api.Transition;

/** Marks the order's parcel packed, unless that already happened. */
public class Pack implements Transition<Void, Shipment> {
  @Override
  public Object transition(Void input, Shipment entry) {
    if (entry.status != null) {
      entry.discard(); // packed already, or even shipped
      return entry;
    }
    entry.status = "packed";
    return entry;
  }
}
