package plant.orders;

import io.toa4j.api.Entry;

/** An order: what was ordered. */
public class Order extends Entry {
  public String item;
}
