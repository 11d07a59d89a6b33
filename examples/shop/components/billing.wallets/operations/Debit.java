package billing.wallets.operations;

import billing.wallets.Wallet;
import io.toa4j.api.Refusal;
import io.toa4j.api.Transition;
import java.util.Map;

/** Takes the money for something, once: the wallet keeps what it took under that thing's id. */
public class Debit implements Transition<Debit.Input, Wallet> {
  public record Input(long amount, String ref) {}

  @Override
  public Object transition(Input input, Wallet entry) {
    if (entry.paid.containsKey(input.ref())) {
      entry.discard(); // asked again for the same thing: the money is taken
      return Map.of("balance", entry.balance);
    }
    if (entry.balance < input.amount()) return Refusal.of("INSUFFICIENT_FUNDS");
    entry.balance -= input.amount();
    entry.paid.put(input.ref(), input.amount());
    return Map.of("balance", entry.balance);
  }
}
