package dialect.books.operations;

import io.toa4j.api.Effect;

/** Declared nowhere: found as a class, as Toa finds operations by their files. */
public class Stamp implements Effect<Void> {
  @Override
  public Object effect(Void input) {
    return "stamped";
  }
}
