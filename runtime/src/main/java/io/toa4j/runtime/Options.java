package io.toa4j.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * What an application takes from its surroundings: time, randomness and the retry policy, so that
 * tests are deterministic and never wait on the wall clock.
 *
 * @param clock stamps CREATED and UPDATED
 * @param random mints ids and identities, and spreads retry delays
 * @param sleeper waits between retries
 * @param environment where {@code TOA_*} settings override the context's: {@code TOA_STORAGE},
 *     {@code TOA_STORAGE_URL}, {@code TOA_BUS}, {@code TOA_BUS_URL}
 * @param callTimeout how long a call to a component hosted by another process waits for its
 *     answer (real time: the broker's)
 */
public record Options(
    Clock clock, RandomGenerator random, Sleeper sleeper, RetryPolicy retry, Map<String, String> environment, Duration callTimeout) {
  /** How long a call to another process waits for its answer unless told otherwise. */
  public static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  public Options {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(sleeper, "sleeper");
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(callTimeout, "callTimeout");
    if (callTimeout.isNegative() || callTimeout.isZero()) throw new IllegalArgumentException("a call timeout is positive; got " + callTimeout);
    environment = Map.copyOf(environment);
  }

  /** The system clock, a secure random source, real sleeps, the default retry policy, 30 s calls. */
  public static Options defaults() {
    return new Options(
        Clock.systemUTC(), new java.security.SecureRandom(), Thread::sleep, RetryPolicy.DEFAULT, System.getenv(), CALL_TIMEOUT);
  }

  public Options withClock(Clock clock) {
    return new Options(clock, random, sleeper, retry, environment, callTimeout);
  }

  public Options withRetry(RetryPolicy retry) {
    return new Options(clock, random, sleeper, retry, environment, callTimeout);
  }

  /** These variables instead of the process's environment. */
  public Options withEnvironment(Map<String, String> environment) {
    return new Options(clock, random, sleeper, retry, environment, callTimeout);
  }

  /** Calls to other processes wait this long for their answer. */
  public Options withCallTimeout(Duration callTimeout) {
    return new Options(clock, random, sleeper, retry, environment, callTimeout);
  }

  /** Waits; the real one is {@link Thread#sleep(long)}. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }
}
