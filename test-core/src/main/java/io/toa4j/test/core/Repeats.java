package io.toa4j.test.core;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which messages a run under test hands over again, and where a crash falls: nowhere (a plain run),
 * after every commit before its acknowledgement (twice mode), or at the points a seed picks (crash
 * mode). There are two kinds of point:
 *
 * <ul>
 *   <li><b>between commit and acknowledgement</b>: a delivery of an event or a task handled and
 *       committed, or a call of the scenario answered, is handed over again — what the bus or the
 *       caller does when the process dies before the acknowledgement reaches it;
 *   <li><b>between publish and marking published</b> (crash mode only): an outbox entry committed
 *       and published is published again — what the sweep of the next process does with an entry a
 *       process died before marking.
 * </ul>
 *
 * <p>In crash mode each point is picked, or not, by the seed and the point's name alone (its queue
 * and message, the record write whose outbox entry it is, its endpoint and identity), not by the
 * order in which concurrent deliveries reach it: the same seed picks the same points in every run
 * that meets the same messages under the same ids, as runs from the same settings and id seed do. A
 * point is decided once: a delivery of a message on a queue is handled again at most once, an entry
 * is published again at most once. Thread-safe.
 */
final class Repeats {
  /**
   * The system property that fixes the seed of crash mode for every test that does not fix its own.
   */
  static final String SEED = "toa.crash.seed";

  private final boolean every;
  private final OptionalLong seed;
  private final Set<String> decided = ConcurrentHashMap.newKeySet();
  private final Set<String> picked = ConcurrentHashMap.newKeySet();
  private final AtomicLong points = new AtomicLong();

  private Repeats(boolean every, OptionalLong seed) {
    this.every = every;
    this.seed = seed;
  }

  /** A plain run: every message delivered once. */
  static Repeats none() {
    return new Repeats(false, OptionalLong.empty());
  }

  /** Twice mode: every message handed over again after its commit, before its acknowledgement. */
  static Repeats every() {
    return new Repeats(true, OptionalLong.empty());
  }

  /** Crash mode: the points the seed picks, of both kinds. */
  static Repeats drawn(long seed) {
    return new Repeats(false, OptionalLong.of(seed));
  }

  /** Whether this run hands any message over again. */
  boolean any() {
    return every || seed.isPresent();
  }

  /** The seed of crash mode; empty in a plain run and in twice mode. */
  OptionalLong seed() {
    return seed;
  }

  /**
   * Whether a delivery handled and committed is handed to its handler again before the bus hears
   * its verdict.
   *
   * @param queue the queue it came from
   * @param label the event's label, or the task's endpoint
   * @param id the message's identity
   */
  boolean beforeAcknowledgement(String queue, String label, String id) {
    return every
        || pick(
            "between commit and acknowledgement: "
                + label
                + " "
                + id
                + " on "
                + queue
                + ", handled again");
  }

  /** Whether a call of the scenario answered is made again under its identity. */
  boolean beforeAnswer(String endpoint, String identity) {
    return every
        || pick(
            "between commit and answer: "
                + endpoint
                + " under identity "
                + identity
                + ", called again");
  }

  /**
   * Whether an outbox entry published is published again instead of staying marked published.
   *
   * @param write the write whose entry it is, in words: {@code kit.orders 0c1d… at VERSION 1}
   */
  boolean beforeMarkedPublished(String write) {
    return pick(
        "between publish and marking published: the outbox entry of "
            + write
            + ", published again");
  }

  /** Decides a point once, from the seed and its name; false without a seed. */
  private boolean pick(String point) {
    if (seed.isEmpty() || !decided.add(point)) return false;
    points.incrementAndGet();
    boolean chosen = new SplittableRandom(seed.getAsLong() ^ mix(point)).nextBoolean();
    if (chosen) picked.add(point);
    return chosen;
  }

  /**
   * A well-spread 64-bit hash of the point's name, so that neighbouring names draw unrelated
   * choices.
   */
  private static long mix(String point) {
    long h = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < point.length(); i++) h = (h ^ point.charAt(i)) * 0x100000001B3L;
    return h;
  }

  /** The points crash mode met so far, picked or not. */
  long points() {
    return points.get();
  }

  /** The points picked so far, in words, sorted so that the same picks read the same. */
  List<String> picked() {
    return List.copyOf(new TreeSet<>(picked));
  }

  /**
   * The seed of crash mode: the one the test gives, else the system property {@value #SEED}, else a
   * fresh one.
   *
   * @throws IllegalArgumentException when the property is set but is not a number
   */
  static long seed(Optional<Long> given) {
    if (given.isPresent()) return given.get();
    String property = System.getProperty(SEED);
    if (property == null || property.isBlank())
      return new SplittableRandom().nextLong() & Long.MAX_VALUE;
    try {
      return Long.parseLong(property.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "system property "
              + SEED
              + " is the seed of crash mode, a whole number; got '"
              + property
              + "'");
    }
  }
}
