package kit.notes;

import io.toa4j.api.Entry;

/** A note of an order placed, under an id the runtime mints. */
public class Note extends Entry {
  public String item;
}
