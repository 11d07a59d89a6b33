package plant.tally;

import io.toa4j.api.Entry;

/** How many times an order was counted. */
public class Tally extends Entry {
  public long count;
}
