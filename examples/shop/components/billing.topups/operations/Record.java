package billing.topups.operations;

import billing.topups.Topup;
import io.toa4j.api.Transition;

/** Records a paid checkout; a repeated report finds it recorded and changes nothing. */
public class Record implements Transition<Record.Input, Topup> {
  public record Input(String checkout, String customer, long amount, String currency) {}

  @Override
  public Object transition(Input input, Topup entry) {
    if (entry.checkout != null) {
      entry.discard(); // this checkout is already recorded
      return entry;
    }
    entry.checkout = input.checkout();
    entry.customer = input.customer();
    entry.amount = input.amount();
    entry.currency = input.currency();
    return entry;
  }
}
