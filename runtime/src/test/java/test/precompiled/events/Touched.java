package test.precompiled.events;

import io.toa4j.api.Change;
import io.toa4j.api.Event;
import test.precompiled.Stamp;

/** Announced by the first touch only, as the manifest that lists it says. */
public class Touched implements Event<Stamp> {
  @Override
  public boolean condition(Change<Stamp> change) {
    return change.creation();
  }
}
