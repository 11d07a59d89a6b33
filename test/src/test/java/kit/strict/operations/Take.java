package kit.strict.operations;

import io.toa4j.api.Transition;
import kit.strict.Strict;

/** Takes an order, and throws when it is taken already instead of discarding the repeat. */
public class Take implements Transition<Take.Input, Strict> {
  public record Input(String item) {}

  @Override
  public Object transition(Input input, Strict entry) {
    if (entry.taken) throw new IllegalStateException("order " + entry.id() + " is taken already");
    entry.taken = true;
    return entry;
  }
}
