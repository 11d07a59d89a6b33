package counters.tallies;

import io.toa4j.api.Entry;

/** A tally: its count. */
public class Tally extends Entry {
  public long count;
}
