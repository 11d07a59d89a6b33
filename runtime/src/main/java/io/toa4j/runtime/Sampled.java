package io.toa4j.runtime;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gauge's value that costs a question to a server (an indexed count, a queue's message count):
 * asked at most once per period, however often the metrics are scraped; a scrape in between answers
 * the last value. A question that fails answers NaN until the next period, so a server out of reach
 * is not asked on every scrape either. Thread-safe: concurrent scrapes ask once.
 */
final class Sampled {
  private static final Logger LOG = LoggerFactory.getLogger(Sampled.class);

  /** How long a sampled value is answered before the source is asked again. */
  static final long PERIOD_MILLIS = 5_000;

  private final String what;
  private final LongSupplier source;
  private final long periodNanos;
  private final LongSupplier nanos;
  private double value;
  private long sampledAt;
  private boolean sampled;

  /**
   * @param what the value, for the debug line of a failed question
   */
  Sampled(String what, LongSupplier source) {
    this(what, source, TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS), System::nanoTime);
  }

  Sampled(String what, LongSupplier source, long periodNanos, LongSupplier nanos) {
    this.what = what;
    this.source = source;
    this.periodNanos = periodNanos;
    this.nanos = nanos;
  }

  /** The value, asked of the source when the last one is a period old (or there is none). */
  synchronized double value() {
    long now = nanos.getAsLong();
    if (!sampled || now - sampledAt >= periodNanos) {
      try {
        value = source.getAsLong();
      } catch (RuntimeException e) {
        LOG.debug("Could not sample {}; the gauge answers NaN until the next try", what, e);
        value = Double.NaN;
      }
      sampledAt = now;
      sampled = true;
    }
    return value;
  }
}
