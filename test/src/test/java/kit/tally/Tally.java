package kit.tally;

import io.toa4j.api.Entry;

/** How many orders were counted: a step taken on every delivery, so a repeat counts again. */
public class Tally extends Entry {
  public long count;
}
