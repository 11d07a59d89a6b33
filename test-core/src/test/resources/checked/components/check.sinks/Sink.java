package check.sinks;

import io.toa4j.api.Entry;
import java.util.ArrayList;
import java.util.List;

/** The notes a sink was given. */
public class Sink extends Entry {
  public List<String> notes = new ArrayList<>();
}
