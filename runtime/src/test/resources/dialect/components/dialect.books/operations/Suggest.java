package dialect.books.operations;

import io.toa4j.api.Computation;
import java.util.List;

/** A title and its first tag, from the same input as create (an alias of its schema). */
public class Suggest implements Computation<Suggest.Input> {
  public record Input(String title, Long pages, List<String> tags) {}

  @Override
  public Object computation(Input input) {
    return input.title() + (input.tags() == null || input.tags().isEmpty() ? "" : " #" + input.tags().get(0));
  }
}
