package io.toa4j.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
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
 * @param startupWait how long booting waits, trying again, for a storage or bus server that cannot
 *     be reached; {@link Duration#ZERO} fails at once, {@link #FOREVER} never gives up
 * @param callTimeout how long a call to a component hosted by another process waits for its answer
 *     (real time: the broker's)
 * @param checks whether each output the code returns is checked against its operation's {@code
 *     output} schema before anything is written; off by default (one more validation per call), on
 *     in the test kit (see docs/components.md, "Outputs are checked when checks are on")
 * @param turnWait how long a call that writes a record waits for its turn on it behind the calls of
 *     this process that write the same record, before it goes on and races for it (see {@link
 *     Turns}); {@link Duration#ZERO}: calls never wait, and race as calls of two processes do
 * @param backlog the most events of a component on their way to its receivers — committed here and
 *     not yet published, plus those in its longest receiver's queue that is being consumed — before
 *     new calls of the component from outside the context wait for the line to shrink; 0: they
 *     never wait (see docs/backpressure.md)
 * @param backlogWait the longest such a call waits before it goes on anyway
 */
public record Options(
    Clock clock,
    RandomGenerator random,
    Sleeper sleeper,
    RetryPolicy retry,
    Map<String, String> environment,
    Duration startupWait,
    Duration callTimeout,
    boolean checks,
    Duration turnWait,
    long backlog,
    Duration backlogWait) {
  /** A wait with no end. */
  public static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

  /** How long a call to another process waits for its answer unless told otherwise. */
  public static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  /** How long a call waits for its turn on a record unless told otherwise. */
  public static final Duration TURN_WAIT = Duration.ofSeconds(2);

  /**
   * How many of a component's events may be on their way to its receivers before new calls wait,
   * unless told otherwise.
   */
  public static final long BACKLOG = 32;

  /** The longest a call waits for that line to shrink, unless told otherwise. */
  public static final Duration BACKLOG_WAIT = Duration.ofSeconds(1);

  public Options {
    Objects.requireNonNull(startupWait, "startupWait");
    if (startupWait.isNegative())
      throw new IllegalArgumentException("startupWait must not be negative; got " + startupWait);
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(sleeper, "sleeper");
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(callTimeout, "callTimeout");
    if (callTimeout.isNegative() || callTimeout.isZero())
      throw new IllegalArgumentException("a call timeout is positive; got " + callTimeout);
    Objects.requireNonNull(turnWait, "turnWait");
    if (turnWait.isNegative())
      throw new IllegalArgumentException("turnWait must not be negative; got " + turnWait);
    if (backlog < 0)
      throw new IllegalArgumentException("backlog must not be negative; got " + backlog);
    Objects.requireNonNull(backlogWait, "backlogWait");
    if (backlogWait.isNegative())
      throw new IllegalArgumentException("backlogWait must not be negative; got " + backlogWait);
    environment = Map.copyOf(environment);
  }

  /**
   * The system clock, a secure random source, real sleeps, the default retry policy, the process's
   * environment, no waiting for servers at boot, 30 s for a call to another process, outputs not
   * checked, 2 s for a call's turn on a record, and new calls held back up to 1 s while more than
   * 32 of their component's events are on their way to a consumed receiver.
   */
  public static Options defaults() {
    return new Options(
        Clock.systemUTC(),
        new java.security.SecureRandom(),
        Thread::sleep,
        RetryPolicy.DEFAULT,
        System.getenv(),
        Duration.ZERO,
        CALL_TIMEOUT,
        false,
        TURN_WAIT,
        BACKLOG,
        BACKLOG_WAIT);
  }

  public Options withClock(Clock clock) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  public Options withRandom(RandomGenerator random) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  public Options withRetry(RetryPolicy retry) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  /** These variables instead of the process's environment. */
  public Options withEnvironment(Map<String, String> environment) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  /** Waits this long at boot for servers that cannot be reached yet. */
  public Options withStartupWait(Duration startupWait) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  /** Calls to other processes wait this long for their answer. */
  public Options withCallTimeout(Duration callTimeout) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  /** This way of waiting instead of real sleeps. */
  public Options withSleeper(Sleeper sleeper) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  /** Outputs checked against their schema when {@code checks}, or not. */
  public Options withChecks(boolean checks) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  /** Calls that write a record wait this long for their turn on it; zero: they never wait. */
  public Options withTurnWait(Duration turnWait) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        backlogWait);
  }

  /**
   * New calls of a component wait, at most {@code wait}, while more than {@code backlog} of its
   * events are on their way to a consumed receiver; a backlog of 0: they never wait.
   */
  public Options withBacklog(long backlog, Duration wait) {
    return new Options(
        clock,
        random,
        sleeper,
        retry,
        environment,
        startupWait,
        callTimeout,
        checks,
        turnWait,
        backlog,
        wait);
  }

  /** Waits; the real one is {@link Thread#sleep(long)}. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }
}
