package test.wallets.operations;

import io.toa4j.api.Transition;
import io.toa4j.spring.app.Gate;
import test.wallets.Wallet;

/** Adds an amount to the balance; waits at the {@link Gate} while a test holds it shut. */
public class Credit implements Transition<Credit.Input, Wallet> {
  public record Input(long amount) {}

  @Override
  public Object transition(Input input, Wallet entry) {
    Gate.pass();
    entry.balance += input.amount();
    return entry;
  }
}
