package io.toa4j.tck.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that stands still until a test moves it, so retries, delays and retention are tested by
 * moving time instead of waiting for it. Thread-safe; always in UTC.
 */
public final class TestClock extends Clock {
  private final AtomicLong millis;

  /** A clock at an arbitrary fixed moment (2027). */
  public TestClock() {
    this(1_800_000_000_000L);
  }

  public TestClock(long startMillis) {
    this.millis = new AtomicLong(startMillis);
  }

  /** Moves the clock forward. */
  public void advance(Duration by) {
    millis.addAndGet(by.toMillis());
  }

  @Override
  public long millis() {
    return millis.get();
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
