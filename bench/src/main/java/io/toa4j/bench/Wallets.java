package io.toa4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The component the benchmarks call: {@code <namespace>.wallets}, an associated entity with a
 * balance and a {@code credit} transition that adds to it, declared with or without {@code once}.
 * With an event, every write of a wallet announces {@code credited} (carrying the wallet), and a
 * second component, {@code <namespace>.ledger}, receives it with {@code note}: an effect that reads
 * the balance from the payload and fails on one that cannot be a credited wallet's, so a delivery
 * that went wrong would be parked instead of counted as handled.
 */
final class Wallets {
  private Wallets() {}

  static void write(Path context, String namespace, boolean once) throws IOException {
    write(context, namespace, once, false);
  }

  static void write(Path context, String namespace, boolean once, boolean event)
      throws IOException {
    Path component =
        Files.createDirectories(context.resolve("components/" + namespace + ".wallets/operations"));
    Files.writeString(
        component.getParent().resolve("manifest.toa.yaml"),
        """
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
        %s
        """
            .formatted(once ? "once: true" : "", event ? "events:\n  credited:\n" : ""));
    Files.writeString(
        component.getParent().resolve("Wallet.java"),
        """
        package %s.wallets;
        public class Wallet extends io.toa4j.api.Entry {
          public long balance;
        }
        """
            .formatted(namespace));
    Files.writeString(
        component.resolve("Credit.java"),
        """
        package %1$s.wallets.operations;
        public class Credit implements io.toa4j.api.Transition<Credit.Input, %1$s.wallets.Wallet> {
          public record Input(long amount) {}
          public Object transition(Input input, %1$s.wallets.Wallet entry) {
            entry.balance += input.amount();
            return entry;
          }
        }
        """
            .formatted(namespace));
    if (event) writeLedger(context, namespace);
  }

  private static void writeLedger(Path context, String namespace) throws IOException {
    Path component =
        Files.createDirectories(context.resolve("components/" + namespace + ".ledger/operations"));
    Files.writeString(
        component.getParent().resolve("manifest.toa.yaml"),
        """
        operations:
          note:
            input: { type: object, properties: { balance: { type: integer } }, required: [balance] }
        receivers:
          %s.wallets.credited: note
        """
            .formatted(namespace));
    Files.writeString(
        component.resolve("Note.java"),
        """
        package %s.ledger.operations;
        public class Note implements io.toa4j.api.Effect<Note.Input> {
          public record Input(long balance) {}
          public Object effect(Input input) {
            if (input.balance() < 1) throw new IllegalStateException("a credited wallet holds " + input.balance());
            return null;
          }
        }
        """
            .formatted(namespace));
  }
}
