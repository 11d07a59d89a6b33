package check.sinks.operations;

import check.sinks.Sink;
import io.toa4j.api.Transition;

/** Appends the note: a step, so a repeated task appends it again. */
public class Absorb implements Transition<Absorb.Input, Sink> {
  public record Input(String note) {}

  @Override
  public Object transition(Input input, Sink entry) {
    entry.notes.add(input.note());
    return entry;
  }
}
