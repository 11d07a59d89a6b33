package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.OutageLog;
import io.toa4j.spi.UnreachableException;
import io.toa4j.tck.time.TestClock;
import io.toa4j.testkit.logs.CapturedLog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * An outage is two lines of the real logger (slf4j-simple at INFO, as the command line runs): one
 * WARN with the reason and no stack trace when a part first fails, one INFO with how long it lasted
 * when it first works again; nothing in between, nothing while it works.
 */
class OutageLogTest {
  final TestClock clock = new TestClock();

  @Test
  void oneWarn_thenQuiet_thenOneInfo_perOutage() {
    OutageLog outage =
        new OutageLog(
            LoggerFactory.getLogger(OutageLogTest.class), "The outbox of test.alpha", clock);
    try (CapturedLog log = CapturedLog.start()) {
      assertThat(outage.succeeded()).as("a success with no outage says nothing").isFalse();
      assertThat(
              outage.failed(
                  new UnreachableException(
                      "PostgreSQL at 127.0.0.1:1 could not claim: Connection refused")))
          .isTrue();
      for (int i = 0; i < 20; i++)
        assertThat(outage.failed(new IllegalStateException("still refused " + i))).isFalse();
      assertThat(outage.failing()).isTrue();
      clock.advance(Duration.ofSeconds(7));
      assertThat(outage.succeeded()).isTrue();
      assertThat(outage.succeeded()).isFalse();
      assertThat(outage.failing()).isFalse();

      assertThat(log.lines("test.alpha"))
          .containsExactly(
              "["
                  + Thread.currentThread().getName()
                  + "] WARN io.toa4j.runtime.OutageLogTest - The outbox of test.alpha fails:"
                  + " PostgreSQL at 127.0.0.1:1 could not claim: Connection refused. It is tried again; further failures are logged"
                  + " at DEBUG until it works",
              "["
                  + Thread.currentThread().getName()
                  + "] INFO io.toa4j.runtime.OutageLogTest - The outbox of test.alpha is back after 7 s");
      assertThat(log.stackTraces()).as("no stack trace below DEBUG").isEmpty();
    }
  }

  @Test
  void everyOutage_isItsOwnPairOfLines() {
    OutageLog outage =
        new OutageLog(
            LoggerFactory.getLogger(OutageLogTest.class), "Deliveries of queue test.beta", clock);
    try (CapturedLog log = CapturedLog.start()) {
      for (int outages = 0; outages < 3; outages++) {
        outage.failed(new UnreachableException("cut"));
        outage.failed(new UnreachableException("cut"));
        clock.advance(Duration.ofSeconds(2));
        outage.succeeded();
        outage.succeeded();
      }
      assertThat(log.lines("test.beta", " WARN ")).hasSize(3);
      assertThat(log.lines("test.beta", " INFO "))
          .hasSize(3)
          .allMatch(line -> line.endsWith("is back after 2 s"));
    }
  }

  @Test
  void anAttemptBegunBeforeThePartCameBack_failingAfter_opensNoNewOutage() {
    OutageLog outage =
        new OutageLog(
            LoggerFactory.getLogger(OutageLogTest.class), "Deliveries of queue test.delta", clock);
    try (CapturedLog log = CapturedLog.start()) {
      long inFlight = outage.attempt();
      assertThat(outage.failed(new UnreachableException("cut"), outage.attempt())).isTrue();
      assertThat(outage.succeeded()).isTrue();
      assertThat(outage.failed(new UnreachableException("its connection was cut"), inFlight))
          .as("an attempt begun before the part came back")
          .isFalse();
      assertThat(outage.failing()).isFalse();

      long after = outage.attempt();
      assertThat(outage.failed(new UnreachableException("cut again"), after))
          .as("an attempt begun after it came back")
          .isTrue();
      assertThat(outage.succeeded()).isTrue();
      assertThat(log.lines("test.delta", " WARN ")).hasSize(2);
      assertThat(log.lines("test.delta", " INFO ")).hasSize(2);
    }
  }

  @Test
  void racingFailures_logOneWarn_andRacingSuccesses_oneInfo() throws Exception {
    OutageLog outage =
        new OutageLog(LoggerFactory.getLogger(OutageLogTest.class), "Calls of test.gamma", clock);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try (CapturedLog log = CapturedLog.start()) {
      int began = race(threads, () -> outage.failed(new UnreachableException("cut")));
      int ended = race(threads, outage::succeeded);
      assertThat(began).isEqualTo(1);
      assertThat(ended).isEqualTo(1);
      assertThat(log.lines("test.gamma", " WARN ")).hasSize(1);
      assertThat(log.lines("test.gamma", " INFO ")).hasSize(1);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void anOutage_isAnUnreachableServerAnywhereInTheCauses() {
    assertThat(OutageLog.isOutage(new RuntimeException("wrapped", new UnreachableException("cut"))))
        .isTrue();
    assertThat(OutageLog.isOutage(new UnreachableException("cut"))).isTrue();
    assertThat(OutageLog.isOutage(new IllegalStateException("the record is malformed"))).isFalse();
    assertThat(OutageLog.isOutage(null)).isFalse();
  }

  /** Runs the work on 8 threads at once, 8 times each; how many times it answered true. */
  private static int race(ExecutorService threads, java.util.function.BooleanSupplier work)
      throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Integer>> counts = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      counts.add(
          threads.submit(
              () -> {
                go.await();
                int n = 0;
                for (int i = 0; i < 8; i++) if (work.getAsBoolean()) n++;
                return n;
              }));
    }
    go.countDown();
    int total = 0;
    for (Future<Integer> count : counts) total += count.get(10, TimeUnit.SECONDS);
    return total;
  }
}
