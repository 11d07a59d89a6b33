package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.spi.Write;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two deliveries of one call racing on one record, placed so that both read it before either
 * commits, and the one that reached its commit first commits last: it loses the record's
 * compare-and-swap to its twin, and is answered with the twin's answer at once — no backoff, no
 * second run.
 */
class TwinRaceTest {
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";
  static final String IDENTITY = "the-same-call";

  @TempDir Path directory;

  /** The embedded storage, holding the first commit of the twins until the second has committed. */
  static final class TwinsCommitInTurn {
    final AtomicInteger arrived = new AtomicInteger();
    final CountDownLatch secondCommitted = new CountDownLatch(1);
    final InterceptedStorage storage =
        new InterceptedStorage(
            "twins-in-turn",
            (component, method, args, proceed) -> {
              boolean twin =
                  method.getName().equals("commit")
                      && args[0] instanceof Write write
                      && write.inbox().filter(e -> e.identity().equals(IDENTITY)).isPresent();
              if (twin && arrived.incrementAndGet() == 1) {
                assertThat(secondCommitted.await(30, TimeUnit.SECONDS))
                    .as("the twin reached its commit")
                    .isTrue();
              }
              try {
                return proceed.call();
              } finally {
                if (twin && arrived.get() == 2) secondCommitted.countDown();
              }
            });
  }

  @Test
  void twinThatLosesTheRecordsCompareAndSwap_isAnsweredWithTheWinnersAnswer_withoutRetrying()
      throws Exception {
    TwinsCommitInTurn twins = new TwinsCommitInTurn();
    AtomicInteger backoffs = new AtomicInteger();
    // Without turns, the twins race as deliveries to two processes do.
    Options options =
        Options.defaults()
            .withSleeper(millis -> backoffs.incrementAndGet())
            .withTurnWait(Duration.ZERO);
    try (Toa app =
        Toa.builder()
            .directory(Contexts.ledger(directory, "true"))
            .engine(twins.storage)
            .storage(twins.storage.name(), Map.of())
            .options(options)
            .build()) {
      app.call(
          "test.ledger.add",
          Request.of(ACCOUNT, Map.of("amount", 1, "mode", "ok"))); // the record exists
      Request add = Request.of(ACCOUNT, Map.of("amount", 5000, "mode", "ok"));

      List<CompletableFuture<Reply>> calls =
          List.of(
              CompletableFuture.supplyAsync(() -> app.call("test.ledger.add", add, IDENTITY)),
              CompletableFuture.supplyAsync(() -> app.call("test.ledger.add", add, IDENTITY)));
      Reply one = calls.get(0).get(60, TimeUnit.SECONDS);
      Reply other = calls.get(1).get(60, TimeUnit.SECONDS);

      assertThat(twins.arrived).as("both ran and reached their commit").hasValue(2);
      assertThat(one).isEqualTo(other);
      assertThat(backoffs).as("backoffs slept").hasValue(0);
      assertThat(app.metrics().find("toa.inbox.twins").counter().count()).isEqualTo(1);
      assertThat(Shop.output(app.call("test.ledger.observe", Request.id(ACCOUNT))))
          .containsEntry("balance", 5001L)
          .containsEntry("VERSION", 2L);
    }
  }
}
