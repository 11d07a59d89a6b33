package fulfilment.shipments;

import io.toa4j.api.Entry;

/** An order's shipment. */
public class Shipment extends Entry {
  public String status;
  public String carrier;
}
