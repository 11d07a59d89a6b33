package io.toa4j.test.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The clock of a context under test: it stands still until the test moves it, so a record's CREATED
 * and UPDATED, a retry's due time and an inbox entry's expiry are what the test makes them, and
 * nothing waits on the wall clock. Always in UTC; thread-safe.
 */
public final class TestClock extends Clock {
  /** Where every context under test starts: 2027-01-15T08:00:00Z. */
  public static final Instant START = Instant.parse("2027-01-15T08:00:00Z");

  private final AtomicReference<Instant> now;

  TestClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /**
   * Moves time forward: messages retried after a delay become due once it has passed.
   *
   * @throws IllegalArgumentException for a negative duration: time under test never goes back
   */
  public void advance(Duration by) {
    if (by.isNegative())
      throw new IllegalArgumentException("the test clock only moves forward; got " + by);
    now.updateAndGet(t -> t.plus(by));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** The same clock: a context under test reads one time, in UTC. */
  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
