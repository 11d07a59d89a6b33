package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spi.Parked;
import io.toa4j.tck.contexts.Contexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Effects declared {@code external} on the embedded engine: an attempt is marked started before it
 * runs and unmarked when it ends; a process killed (SIGKILL) between calling the provider and
 * ending leaves the mark, the redelivery is told the outcome is unknown with the key to reconcile
 * with, and past the operation's allowance the message is parked as {@code OUTCOME_UNKNOWN}.
 */
class ExternalTest {
  static final Duration SETTLE = Duration.ofSeconds(60);

  /**
   * The file the fake provider appends each charge to; the charge hangs after it when {@link #HANG}
   * is set.
   */
  static final String PROVIDER = "toa.test.provider";

  static final String HANG = "toa.test.hang";

  @TempDir Path directory;

  static Path context(Path directory) {
    Contexts.write(directory, "context.toa.yaml", "name: test\n");
    Contexts.write(
        directory,
        "components/test.payments/manifest.toa.yaml",
        """
        operations:
          order:
            type: effect
            input: { type: object, properties: { order: { type: string } }, required: [order] }
          charge:
            type: effect
            external: { unknown: 1 }
            input: { type: object, properties: { order: { type: string } }, required: [order] }
        """);
    Contexts.write(
        directory,
        "components/test.payments/operations/Order.java",
        """
        package test.payments.operations;
        import io.toa4j.api.*;
        import java.util.Map;
        public class Order implements Effect<Order.Input> {
          public record Input(String order) {}
          public Object effect(Input input, Context context) {
            context.remote("test.payments").task("charge", Request.input(Map.of("order", input.order())));
            return "ordered";
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.payments/operations/Charge.java",
        """
        package test.payments.operations;
        import io.toa4j.api.*;
        import java.nio.file.*;
        public class Charge implements Effect<Charge.Input> {
          public record Input(String order) {}
          public Object effect(Input input, Context context) {
            String seen = context.previous().map(p -> "unknown " + p.unknown() + " key " + p.key()).orElse("fresh");
            try {
              Files.writeString(Path.of(System.getProperty("toa.test.provider")), context.identity() + " " + seen + "\\n",
                  StandardOpenOption.CREATE, StandardOpenOption.APPEND);
              // the provider was called; the attempt never ends, and the test kills the process here
              if (Boolean.getBoolean("toa.test.hang")) new java.util.concurrent.CountDownLatch(1).await();
            } catch (java.io.IOException | InterruptedException e) {
              throw new IllegalStateException(e);
            }
            return "charged";
          }
        }
        """);
    return directory;
  }

  @AfterEach
  void clear() {
    System.clearProperty(PROVIDER);
  }

  @Test
  void anAttemptThatEnded_leavesNoMark_andAMarkFoundIsToldThenRefusedPastTheAllowance()
      throws Exception {
    Path provider = directory.resolve("provider.log");
    System.setProperty(PROVIDER, provider.toString());
    try (Toa app = Toa.builder().directory(context(directory.resolve("context"))).build()) {
      String identity = "0123456789abcdef0123456789abcdef";
      assertThat(app.call("test.payments.charge", Request.input(Map.of("order", "o1")), identity))
          .isEqualTo(new Reply.Output(Optional.of("charged")));
      assertThat(
              app.storage()
                  .store(SystemStores.label(Attempts.STORE))
                  .read(Attempts.id("test.payments.charge", identity)))
          .isEmpty();

      // an attempt whose process died: its mark, as it committed it
      Attempts marks =
          new Attempts(
              () -> app.storage().store(SystemStores.label(Attempts.STORE)),
              java.time.Clock.systemUTC());
      marks.start("test.payments.charge", identity, 1);
      assertThat(app.call("test.payments.charge", Request.input(Map.of("order", "o1")), identity))
          .isEqualTo(new Reply.Output(Optional.of("charged")));
      marks.start("test.payments.charge", identity, 1);
      marks.start("test.payments.charge", identity, 1);
      assertThatThrownBy(
              () ->
                  app.call("test.payments.charge", Request.input(Map.of("order", "o1")), identity))
          .isInstanceOfSatisfying(
              Failure.class,
              f -> {
                assertThat(f.code()).isEqualTo(Failure.Code.OUTCOME_UNKNOWN);
                assertThat(f.details())
                    .containsEntry("key", identity)
                    .containsEntry("unknown", "2");
              });
      assertThat(lines(provider))
          .containsExactly(identity + " fresh", identity + " unknown 1 key " + identity);
    }
  }

  @Test
  void sigkillBetweenTheProviderAndTheEnd_theRedeliveryIsToldTheOutcomeIsUnknown_thenItIsParked()
      throws Exception {
    Path context = context(directory.resolve("context"));
    Path provider = directory.resolve("provider.log");

    Process first = worker(context, provider, "o1");
    await().atMost(SETTLE).until(() -> lines(provider).size() == 1);
    first.destroyForcibly().waitFor(); // SIGKILL: the provider was called, the attempt never ended
    String key = lines(provider).get(0).split(" ")[0];
    assertThat(lines(provider).get(0)).isEqualTo(key + " fresh");

    Process second = worker(context, provider, null);
    await().atMost(SETTLE).until(() -> lines(provider).size() == 2);
    second.destroyForcibly().waitFor();
    assertThat(lines(provider).get(1)).isEqualTo(key + " unknown 1 key " + key);

    System.setProperty(PROVIDER, provider.toString());
    try (Toa app = Toa.builder().directory(context).build()) {
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
      Parked parked = app.admin().parked().get(0);
      assertThat(parked.code()).isEqualTo("OUTCOME_UNKNOWN");
      assertThat(parked.reason()).contains("reconcile with the provider under the key " + key);
      assertThat(lines(provider)).hasSize(2); // not run a third time
    }
  }

  private Process worker(Path context, Path provider, String order) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                java,
                "-D" + PROVIDER + "=" + provider,
                "-D" + HANG + "=true",
                "-cp",
                System.getProperty("java.class.path"),
                ExternalWorker.class.getName(),
                context.toString()));
    if (order != null) command.add(order);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(directory.resolve("worker-" + System.nanoTime() + ".log").toFile())
        .start();
  }

  private static List<String> lines(Path file) throws IOException {
    return Files.exists(file) ? Files.readAllLines(file) : List.of();
  }
}
