package kit.looks;

import io.toa4j.api.Entry;
import java.util.ArrayList;
import java.util.List;

/** The items counted, kept under what was counted, so a repeat finds its item there. */
public class Look extends Entry {
  public long count;
  public List<String> items = new ArrayList<>();
}
