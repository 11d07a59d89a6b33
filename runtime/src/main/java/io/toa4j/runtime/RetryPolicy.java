package io.toa4j.runtime;

import java.time.Duration;

/**
 * How a transition declared {@code concurrency: retry} waits between attempts after a lost
 * compare-and-swap: {@code min(initial × factor^attempt, max)}, spread by ±{@code jitter}.
 *
 * @param attempts how many times the operation runs at most, the first run included
 */
public record RetryPolicy(
    int attempts, Duration initial, double factor, Duration max, double jitter) {
  /** 32 attempts; 10 ms growing by 1.5 up to 5 s; ±50 % jitter. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(32, Duration.ofMillis(10), 1.5, Duration.ofSeconds(5), 0.5);

  public RetryPolicy {
    if (attempts < 1) throw new IllegalArgumentException("attempts must be at least 1");
    if (factor < 1) throw new IllegalArgumentException("factor must be at least 1");
    if (jitter < 0 || jitter >= 1) throw new IllegalArgumentException("jitter must be in [0, 1)");
  }

  /**
   * The wait before attempt {@code attempt + 1}, after {@code attempt} lost attempts (1-based).
   *
   * @param spread a value in [0, 1) from the injected randomness
   */
  long delayMillis(int attempt, double spread) {
    double base = Math.min(initial.toMillis() * Math.pow(factor, attempt - 1), max.toMillis());
    return Math.round(base * (1 - jitter + 2 * jitter * spread));
  }
}
