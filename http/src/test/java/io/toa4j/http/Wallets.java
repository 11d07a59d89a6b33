package io.toa4j.http;

import java.nio.file.Path;

/**
 * A context with one exposed wallet component, written for the Idempotency-Key tests: {@code
 * credit} (a retried transition made once) adds an amount to a balance, {@code rename} (a
 * transition not made once) sets a name, and {@code relay} (an effect) calls {@code credit} on the
 * wallet its input names. Every route is anonymous but {@code /:id/staff-credits/}, open to the
 * role {@code store:wallets}. When the system property named by {@code gate} holds two latches,
 * {@code credit} counts the first down and waits for the second, so a test can hold a request in
 * flight.
 */
final class Wallets {
  private Wallets() {}

  static Path context(Path directory, String gate) {
    Notes.write(directory, "context.toa.yaml", "name: test\n");
    Notes.write(
        directory,
        "components/test.wallets/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            balance: { type: integer }
            name: { type: string }
        operations:
          credit:
            concurrency: retry
            once: true
            query: true
            input: { type: object, properties: { amount: { type: integer, minimum: 1 } }, required: [amount] }
          rename:
            query: true
            input: { type: object, properties: { name: { type: string } }, required: [name] }
          relay:
            input:
              type: object
              properties: { wallet: { type: string }, amount: { type: integer } }
              required: [wallet, amount]
        exposition:
          auth:anonymous: true
          auth:anyone: true
          io:output: [id, balance, name, VERSION]
          /:id:
            GET: observe
          /:id/credits:
            PUT: credit
            POST: credit
          /:id/deposits:
            PUT: credit
          /:id/grants:
            io:idempotency-key: required
            GET: observe
            PUT: credit
          /:id/name:
            PUT: rename
          /:id/staff-credits:
            auth:anonymous: false
            auth:anyone: false
            auth:role: store:wallets
            PUT: credit
          /relays:
            POST: relay
        """);
    Notes.write(
        directory,
        "components/test.wallets/Wallet.java",
        """
        package test.wallets;
        public class Wallet extends io.toa4j.api.Entry { public long balance; public String name; }
        """);
    Notes.write(
        directory,
        "components/test.wallets/operations/Credit.java",
        """
        package test.wallets.operations;
        import java.util.concurrent.CountDownLatch;
        import java.util.concurrent.TimeUnit;
        public class Credit implements io.toa4j.api.Transition<Credit.Input, test.wallets.Wallet> {
          public record Input(long amount) {}
          public Object transition(Input input, test.wallets.Wallet entry) {
            if (System.getProperties().get("%s") instanceof CountDownLatch[] gate) {
              gate[0].countDown();
              try {
                if (!gate[1].await(30, TimeUnit.SECONDS)) throw new IllegalStateException("the gate was never opened");
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            }
            entry.balance += input.amount();
            return entry;
          }
        }
        """
            .formatted(gate));
    Notes.write(
        directory,
        "components/test.wallets/operations/Rename.java",
        """
        package test.wallets.operations;
        public class Rename implements io.toa4j.api.Transition<Rename.Input, test.wallets.Wallet> {
          public record Input(String name) {}
          public Object transition(Input input, test.wallets.Wallet entry) {
            entry.name = input.name();
            return entry;
          }
        }
        """);
    Notes.write(
        directory,
        "components/test.wallets/operations/Relay.java",
        """
        package test.wallets.operations;
        import io.toa4j.api.Context;
        import io.toa4j.api.Request;
        import java.util.Map;
        public class Relay implements io.toa4j.api.Effect<Relay.Input> {
          public record Input(String wallet, long amount) {}
          public Object effect(Input input, Context context) {
            return context.remote("test.wallets").call("credit", Request.of(input.wallet(), Map.of("amount", input.amount())));
          }
        }
        """);
    return directory;
  }
}
