package billing.topups.events;

import billing.topups.Topup;
import io.toa4j.api.Change;
import io.toa4j.api.Event;

/** A top-up was paid: announced only by the write that created the record. */
public class Paid implements Event<Topup> {
  @Override
  public boolean condition(Change<Topup> change) {
    return change.creation();
  }
}
