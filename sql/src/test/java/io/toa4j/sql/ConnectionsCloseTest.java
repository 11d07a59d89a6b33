package io.toa4j.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A pool is closed within a bound: one that never ends its close leaves its closer waiting no
 * longer.
 */
class ConnectionsCloseTest {
  @Test
  void aPoolThatCloses_isClosed() {
    CountDownLatch closed = new CountDownLatch(1);
    assertThat(Connections.close(closed::countDown, "quick", Duration.ofSeconds(30))).isTrue();
    assertThat(closed.getCount()).isZero();
  }

  @Test
  void aPoolWhoseCloseNeverEnds_isLeftToEndOnItsOwnThread_afterTheBound() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    CountDownLatch closing = new CountDownLatch(1);
    long started = System.nanoTime();
    try {
      boolean closed =
          Connections.close(
              () -> {
                closing.countDown();
                never.await();
              },
              "stuck",
              Duration.ofMillis(300));
      assertThat(closed).isFalse();
      assertThat(closing.await(0, TimeUnit.SECONDS)).as("its close began").isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .isGreaterThanOrEqualTo(Duration.ofMillis(300));
    } finally {
      never.countDown();
    }
  }

  @Test
  void aPoolWhoseCloseFails_isNotClosed() {
    assertThat(
            Connections.close(
                () -> {
                  throw new IllegalStateException("cannot");
                },
                "failing",
                Duration.ofSeconds(30)))
        .isFalse();
  }
}
