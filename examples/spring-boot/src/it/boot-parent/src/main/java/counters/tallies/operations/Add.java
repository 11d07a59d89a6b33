package counters.tallies.operations;

import counters.tallies.Tally;
import io.toa4j.api.Transition;

/** Adds an amount to the count. */
public class Add implements Transition<Add.Input, Tally> {
  public record Input(long amount) {}

  @Override
  public Object transition(Input input, Tally entry) {
    entry.count += input.amount();
    return entry;
  }
}
