package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Admin#settle} waits on the signals of progress, not on a timer. */
class SettleTest {
  private static final Duration SETTLE = Duration.ofSeconds(30);
  private static final String A = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  private Toa boot() {
    return Toa.builder()
        .directory(Contexts.sourceAndSink(directory))
        .options(Options.defaults().withClock(clock))
        .build();
  }

  private static double counted(Toa app, String outcome) {
    return app.metrics().find("toa.messages").tag("outcome", outcome).counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  @Test
  void settle_waitingForARetriedDelivery_returnsOnceItIsHandled_wokenByItsSignal()
      throws Exception {
    try (Toa app = boot()) {
      app.call("test.sources.emit", Request.of(A, Map.of("failures", 1, "refuse", false)));
      await().atMost(SETTLE).until(() -> counted(app, "retried") == 1);
      Admin admin = app.admin();

      CompletableFuture<Optional<String>> settled =
          CompletableFuture.supplyAsync(() -> admin.settle(SETTLE));
      // the retry is due only when the test clock says so: settle is surely waiting once it woke by
      // time
      await().atMost(SETTLE).until(() -> admin.timedWakes() >= 1);
      assertThat(settled).isNotDone();
      long signalledBefore = admin.signalledWakes();
      clock.advance(Duration.ofSeconds(1));

      assertThat(settled.get(SETTLE.toSeconds(), TimeUnit.SECONDS)).isEmpty();
      assertThat(counted(app, "delivered")).isEqualTo(1);
      assertThat(admin.signalledWakes()).isGreaterThan(signalledBefore);
    }
  }

  @Test
  void settle_withNothingPending_returnsWithoutWaiting() {
    try (Toa app = boot()) {
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(app.admin().signalledWakes()).isZero();
      assertThat(app.admin().timedWakes()).isZero();
    }
  }

  @Test
  void progress_signalRaisedAfterTheCountWasRead_isNotMissed() throws Exception {
    Progress progress = new Progress();
    long seen = progress.count();
    progress.signal();

    assertThat(progress.await(seen, TimeUnit.SECONDS.toNanos(30))).isTrue();
    assertThat(progress.await(progress.count(), TimeUnit.MILLISECONDS.toNanos(1))).isFalse();
  }
}
