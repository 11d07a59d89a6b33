package dialect.books.operations;

import io.toa4j.api.Computation;

/** Twice the limit: enough to see that the limit's default reached the code. */
public class Count implements Computation<Count.Input> {
  public record Input(long limit) {}

  @Override
  public Object computation(Input input) {
    return input.limit() * 2;
  }
}
