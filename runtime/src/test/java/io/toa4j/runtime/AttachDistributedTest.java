package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A caller's retry reaching the host over RabbitMQ while the first call of its identity is still
 * running there: it waits for the first answer and is answered from the inbox, so the operation
 * runs once and both answers are the same — on PostgreSQL and RabbitMQ, host and caller apart.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class AttachDistributedTest {
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();
  final String gate = "toa4j.test.attach." + UUID.randomUUID();

  @AfterEach
  void forgetTheGate() {
    System.getProperties().remove(gate);
  }

  /**
   * test.slow.add: a credit made once, which counts its runs and waits at the gate while it is
   * shut.
   */
  private Path context() {
    Contexts.write(directory, "context.toa.yaml", "name: attach\n");
    Contexts.write(
        directory,
        "components/test.slow/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            balance: { type: integer }
        operations:
          add:
            concurrency: retry
            once: true
            query: true
            input: { type: object, properties: { amount: { type: integer } }, required: [amount] }
        """);
    Contexts.write(
        directory,
        "components/test.slow/Account.java",
        """
        package test.slow;
        public class Account extends io.toa4j.api.Entry {
          public long balance;
        }
        """);
    Contexts.write(
        directory,
        "components/test.slow/operations/Add.java",
        """
        package test.slow.operations;
        import io.toa4j.api.Transition;
        import java.util.concurrent.CountDownLatch;
        import java.util.concurrent.TimeUnit;
        import java.util.concurrent.atomic.AtomicInteger;
        import test.slow.Account;
        public class Add implements Transition<Add.Input, Account> {
          public record Input(long amount) {}
          public Object transition(Input input, Account entry) {
            Object[] gate = (Object[]) System.getProperties().get("%s");
            if (gate != null) {
              ((AtomicInteger) gate[0]).incrementAndGet();
              ((CountDownLatch) gate[1]).countDown();
              try {
                if (!((CountDownLatch) gate[2]).await(60, TimeUnit.SECONDS)) throw new IllegalStateException("never opened");
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
    return directory;
  }

  @Test
  void retryOverTheBus_whileTheFirstRunsInTheHost_waitsForItsAnswer_andTheOperationRunsOnce()
      throws Exception {
    AtomicInteger runs = new AtomicInteger();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch open = new CountDownLatch(1);
    Options options = Options.defaults().withEnvironment(engines.environment);
    Path context = context();
    try (Toa host = Toa.builder().directory(context).options(options).host("test.slow").build();
        Toa caller = Toa.builder().directory(context).options(options).connect()) {
      System.getProperties().put(gate, new Object[] {runs, entered, open});
      Request add = Request.of(ACCOUNT, Map.of("amount", 5));

      CompletableFuture<Reply> first =
          CompletableFuture.supplyAsync(() -> caller.call("test.slow.add", add, "retried"));
      assertThat(entered.await(60, TimeUnit.SECONDS))
          .as("the first call runs in the host")
          .isTrue();
      CompletableFuture<Reply> retry =
          CompletableFuture.supplyAsync(() -> caller.call("test.slow.add", add, "retried"));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> host.metrics().counter(Calls.WAITS).count() == 1);
      assertThat(retry).as("the retry waits in the host while the first runs").isNotDone();
      open.countDown();

      Reply answered = first.get(60, TimeUnit.SECONDS);
      Reply attached = retry.get(60, TimeUnit.SECONDS);
      assertThat(attached).isEqualTo(answered);
      assertThat(runs).as("the operation ran once").hasValue(1);
      assertThat(host.metrics().counter("toa.inbox.answers", "operation", "test.slow.add").count())
          .as("the retry was answered from the inbox")
          .isEqualTo(1);
      assertThat(Shop.output(caller.call("test.slow.observe", Request.id(ACCOUNT))))
          .containsEntry("balance", 5L)
          .containsEntry("VERSION", 1L);
    }
  }
}
