package example;

import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The shop's wallets, run inside a plain Java program: the context is built in code, the component
 * is declared in code and its classes are this program's own (package {@code billing.wallets}).
 * It credits a wallet, makes the same call again under the same identity, and prints the wallet.
 */
public final class Main {
  static final String WALLETS = """
      entity:
        associated: true
        properties:
          balance: { type: integer, minimum: 0 }
          paid: { type: object, additionalProperties: { type: integer } }
        required: [balance, paid]
        blank: { balance: 0, paid: {} }
      operations:
        credit:
          concurrency: retry
          once: true
          query: true
          input:
            type: object
            properties:
              amount: { type: integer, minimum: 1, maximum: 1000000000 }
              type: { type: string, enum: [topup, refund, goodwill] }
              ref: { type: string }
            required: [amount, type, ref]
          errors: [BALANCE_LIMIT]
      """;

  private Main() {}

  public static void main(String[] args) throws Exception {
    Path state = Files.createTempDirectory("toa-embedded");
    String wallet = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";
    String identity = "3f1c8a2e-6d0b-4c1f-9a57-0e2b7c9d4a11";
    Request credit = Request.of(Query.id(wallet), Map.of("amount", 5000, "type", "goodwill", "ref", "welcome"));
    try (Toa toa = Toa.builder()
        .name("shop")
        .component("billing.wallets", WALLETS)
        .storage("sqlite", Map.of("path", state.resolve("storage")))
        .bus("embedded", Map.of())
        .state(state)
        .build()) {
      toa.call("billing.wallets.credit", credit, identity);
      toa.call("billing.wallets.credit", credit, identity); // delivered again: answered, not applied
      Reply observed = toa.call("billing.wallets.observe", Request.id(wallet));
      print((Map<?, ?>) ((Reply.Output) observed).value().orElseThrow());
    } finally {
      try (Stream<Path> files = Files.walk(state)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** The record as YAML: one line a property, nested mappings in flow style. */
  private static void print(Map<?, ?> record) {
    record.forEach((key, value) -> System.out.println(key + ": " + flow(value)));
  }

  private static String flow(Object value) {
    if (value instanceof Map<?, ?> map) {
      StringBuilder text = new StringBuilder("{");
      map.forEach((k, v) -> text.append(text.length() > 1 ? ", " : "").append(k).append(": ").append(flow(v)));
      return text.append("}").toString();
    }
    return String.valueOf(value);
  }
}
