package kit.strict;

import io.toa4j.api.Entry;

/** Whether an order was taken: a second take is an error here, not "already so". */
public class Strict extends Entry {
  public boolean taken;
}
