package billing.wallets.operations;

import billing.wallets.Wallet;
import io.toa4j.api.Refusal;
import io.toa4j.api.Transition;

/** Gives money to a customer. Adds: it cannot be phrased as a state to reach. */
public class Credit implements Transition<Credit.Input, Wallet> {
  public record Input(long amount, String type, String ref) {}

  @Override
  public Object transition(Input input, Wallet entry) {
    if (input.amount() > Long.MAX_VALUE - entry.balance) return Refusal.of("BALANCE_LIMIT");
    entry.balance += input.amount();
    return entry;
  }
}
