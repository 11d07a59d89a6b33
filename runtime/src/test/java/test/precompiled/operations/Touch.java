package test.precompiled.operations;

import io.toa4j.api.Transition;
import test.precompiled.Stamp;

/** Counts a touch: an operation of a precompiled component (no sources in its folder). */
public class Touch implements Transition<Void, Stamp> {
  @Override
  public Object transition(Void input, Stamp entry) {
    entry.count++;
    return entry;
  }
}
