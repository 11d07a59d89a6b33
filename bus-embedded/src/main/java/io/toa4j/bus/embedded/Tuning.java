package io.toa4j.bus.embedded;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * The embedded bus's knobs, parsed and checked once when a bus opens.
 *
 * @param pollInterval how often, in real time, a consumer looks for messages nobody told it about:
 *     due later by the clock, replayed or written by another process
 * @param maxInFlight how many messages one subscription hands to its handler at once
 * @param closeTimeout how long closing waits for handlers in progress
 * @param busyTimeout how long a statement waits for another process's write lock on the file
 * @param handOffWait how long a publish that hands messages to handlers before storing them waits
 *     for room and verdicts; zero stores every message first
 */
record Tuning(
    Duration pollInterval,
    int maxInFlight,
    Duration closeTimeout,
    Duration busyTimeout,
    Duration handOffWait) {
  static final String POLL_INTERVAL = "poll-interval-ms";
  static final String MAX_IN_FLIGHT = "max-in-flight";
  static final String CLOSE_TIMEOUT = "close-timeout-ms";
  static final String BUSY_TIMEOUT = "busy-timeout-ms";
  static final String HAND_OFF_WAIT = "hand-off-wait-ms";

  static final Tuning DEFAULT =
      new Tuning(
          Duration.ofMillis(50),
          16,
          Duration.ofSeconds(10),
          Duration.ofSeconds(30),
          Duration.ofMillis(100));

  /** The defaults, overridden by the options given; fails on an unknown option or a bad value. */
  static Tuning from(Map<String, String> options) {
    Map<String, String> rest = new TreeMap<>(options);
    Duration poll = millis(rest, POLL_INTERVAL, DEFAULT.pollInterval, 1, 60_000);
    int inFlight = (int) number(rest, MAX_IN_FLIGHT, DEFAULT.maxInFlight, 1, 1024);
    Duration close = millis(rest, CLOSE_TIMEOUT, DEFAULT.closeTimeout, 0, 3_600_000);
    Duration busy = millis(rest, BUSY_TIMEOUT, DEFAULT.busyTimeout, 0, 3_600_000);
    Duration handOff = millis(rest, HAND_OFF_WAIT, DEFAULT.handOffWait, 0, 60_000);
    if (!rest.isEmpty()) {
      throw new IllegalArgumentException(
          "The embedded bus has no option "
              + String.join(", ", rest.keySet())
              + "; it knows "
              + String.join(
                  ", ", POLL_INTERVAL, MAX_IN_FLIGHT, CLOSE_TIMEOUT, BUSY_TIMEOUT, HAND_OFF_WAIT)
              + ". Remove it from the context's bus options.");
    }
    return new Tuning(poll, inFlight, close, busy, handOff);
  }

  private static Duration millis(
      Map<String, String> rest, String key, Duration fallback, long min, long max) {
    return Duration.ofMillis(number(rest, key, fallback.toMillis(), min, max));
  }

  private static long number(
      Map<String, String> rest, String key, long fallback, long min, long max) {
    String text = rest.remove(key);
    if (text == null) return fallback;
    long value;
    try {
      value = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      value = min - 1;
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "The embedded bus option "
              + key
              + " is '"
              + text
              + "'; it must be a whole number from "
              + min
              + " to "
              + max
              + " (default "
              + fallback
              + ").");
    }
    return value;
  }
}
