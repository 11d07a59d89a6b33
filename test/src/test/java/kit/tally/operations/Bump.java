package kit.tally.operations;

import io.toa4j.api.Transition;
import kit.tally.Tally;

/**
 * Counts an order by adding one: a step, not a state to reach; without once, a repeat adds one
 * more.
 */
public class Bump implements Transition<Bump.Input, Tally> {
  public record Input(String item) {}

  @Override
  public Object transition(Input input, Tally entry) {
    entry.count += 1;
    return entry;
  }
}
