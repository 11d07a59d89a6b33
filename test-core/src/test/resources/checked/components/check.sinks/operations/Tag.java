package check.sinks.operations;

import check.sinks.Sink;
import io.toa4j.api.Transition;
import java.util.ArrayList;
import java.util.List;

/** Makes the code the only note: a state to reach. */
public class Tag implements Transition<Tag.Input, Sink> {
  public record Input(String code) {}

  @Override
  public Object transition(Input input, Sink entry) {
    entry.notes = new ArrayList<>(List.of(input.code()));
    return entry;
  }
}
