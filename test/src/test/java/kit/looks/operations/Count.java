package kit.looks.operations;

import io.toa4j.api.Transition;
import kit.looks.Look;

/**
 * Counts an item once: looks before it writes, and discards a repeat that finds the item counted.
 */
public class Count implements Transition<Count.Input, Look> {
  public record Input(String item) {}

  @Override
  public Object transition(Input input, Look entry) {
    if (entry.items.contains(input.item())) {
      entry.discard(); // counted already: nothing is written, nothing announced
      return entry;
    }
    entry.items.add(input.item());
    entry.count = entry.items.size();
    return entry;
  }
}
