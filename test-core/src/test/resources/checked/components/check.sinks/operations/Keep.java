package check.sinks.operations;

import check.sinks.Sink;
import io.toa4j.api.Transition;

/** Keeps the note once: a repeat finds it kept and discards. */
public class Keep implements Transition<Keep.Input, Sink> {
  public record Input(String note) {}

  @Override
  public Object transition(Input input, Sink entry) {
    if (entry.notes.contains(input.note())) {
      entry.discard();
      return entry;
    }
    entry.notes.add(input.note());
    return entry;
  }
}
