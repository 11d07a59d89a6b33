package kit.notes.operations;

import io.toa4j.api.Transition;
import kit.notes.Note;

/**
 * Writes a new note: a new record each run, so it declares once and a repeat is answered by the
 * inbox.
 */
public class Write implements Transition<Write.Input, Note> {
  public record Input(String item) {}

  @Override
  public Object transition(Input input, Note entry) {
    entry.item = input.item();
    return entry;
  }
}
