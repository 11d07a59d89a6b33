package kit.orders;

import io.toa4j.api.Entry;

/** An order of the kit's own test components: what was ordered. */
public class Order extends Entry {
  public String item;
}
