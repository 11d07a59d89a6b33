package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code toa call --id}: the same identity with the same request is answered with the first answer;
 * with another request it fails, and changes nothing.
 */
class CallIdentityReuseTest {
  static final String WALLET = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  @TempDir Path context;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void callWithId_repeated_isAnsweredOnce_andWithAnotherRequestFails() throws IOException {
    write("context.toa.yaml", "name: test\n");
    write(
        "components/test.wallets/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            balance: { type: integer }
        operations:
          credit:
            once: true
            query: true
            input: { type: object, properties: { amount: { type: integer } }, required: [amount] }
        """);
    write(
        "components/test.wallets/Wallet.java",
        """
        package test.wallets;
        public class Wallet extends io.toa4j.api.Entry { public long balance; }
        """);
    write(
        "components/test.wallets/operations/Credit.java",
        """
        package test.wallets.operations;
        public class Credit implements io.toa4j.api.Transition<Credit.Input, test.wallets.Wallet> {
          public record Input(long amount) {}
          public Object transition(Input input, test.wallets.Wallet entry) {
            entry.balance += input.amount();
            return entry;
          }
        }
        """);
    String credit5 = "{ query: { id: " + WALLET + " }, input: { amount: 5 } }";

    assertThat(call("--id", "top-up-1", "test.wallets.credit", credit5))
        .as(err.toString())
        .isZero();
    assertThat(call("--id", "top-up-1", "test.wallets.credit", credit5))
        .as(err.toString())
        .isZero();
    int reused =
        call("--id", "top-up-1", "test.wallets.credit", credit5.replace("amount: 5", "amount: 6"));

    assertThat(reused).isEqualTo(1);
    assertThat(err.toString())
        .contains("failed (IDENTITY_REUSED)", "top-up-1", "different request");
    out.getBuffer().setLength(0);
    assertThat(call("test.wallets.observe", "{ query: { id: " + WALLET + " } }")).isZero();
    assertThat(out.toString()).contains("balance: 5");
  }

  private int call(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "--context";
    all[1] = context.toString();
    all[2] = "call";
    System.arraycopy(args, 0, all, 3, args.length);
    return Toa.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(all);
  }

  private void write(String file, String text) throws IOException {
    Path path = context.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
