package io.toa4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The component the benchmarks call: {@code <namespace>.wallets}, an associated entity with a
 * balance and a {@code credit} transition that adds to it, declared with or without {@code once}.
 */
final class Wallets {
  private Wallets() {}

  static void write(Path context, String namespace, boolean once) throws IOException {
    Path component = Files.createDirectories(context.resolve("components/" + namespace + ".wallets/operations"));
    Files.writeString(component.getParent().resolve("manifest.toa.yaml"), """
        entity:
          associated: true
          properties:
            balance: { type: integer }
        operations:
          credit:
            concurrency: retry
            %s
            query: true
            input:
              type: object
              properties:
                amount: { type: integer, minimum: 1 }
              required: [amount]
        """.formatted(once ? "once: true" : ""));
    Files.writeString(component.getParent().resolve("Wallet.java"), """
        package %s.wallets;
        public class Wallet extends io.toa4j.api.Entry {
          public long balance;
        }
        """.formatted(namespace));
    Files.writeString(component.resolve("Credit.java"), """
        package %1$s.wallets.operations;
        public class Credit implements io.toa4j.api.Transition<Credit.Input, %1$s.wallets.Wallet> {
          public record Input(long amount) {}
          public Object transition(Input input, %1$s.wallets.Wallet entry) {
            entry.balance += input.amount();
            return entry;
          }
        }
        """.formatted(namespace));
  }
}
