package io.toa4j.test.core;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which messages a run under test hands over again, and where a crash falls: nowhere (a plain run),
 * after every commit before its acknowledgement (twice mode), or at one point named beforehand (a
 * run of crash mode). There are two kinds of point:
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
 * <p>Every run notes the name of each point it meets ({@link #met()}), whether it repeats there or
 * not: crash mode learns the points of a scenario from its plain run, then runs it once per point
 * with {@link #only} that point. A point is named by what it repeats — its queue and message, the
 * record write whose outbox entry it is, its endpoint and identity — not by the order in which
 * concurrent deliveries reach it, so runs that meet the same messages under the same ids, as runs
 * from the same settings and id seed do, meet the same names. A point is repeated at most once: a
 * delivery of a message on a queue is handled again once, an entry is published again once.
 * Thread-safe.
 */
final class Repeats {
  /**
   * The system property that fixes the seed of crash mode for every test that does not fix its own:
   * what chooses the points explored when a scenario has more than the budget.
   */
  static final String SEED = "toa.crash.seed";

  /**
   * The system property that sets the budget of crash mode for every test that does not set its
   * own: how many points of a scenario it explores at most.
   */
  static final String BUDGET = "toa.crash.budget";

  /** The budget of crash mode unless told: the points explored of one scenario, at most. */
  static final int DEFAULT_BUDGET = 32;

  private final boolean every;
  private final Optional<String> only;
  private final Set<String> met = ConcurrentHashMap.newKeySet();
  private final Set<String> picked = ConcurrentHashMap.newKeySet();

  private Repeats(boolean every, Optional<String> only) {
    this.every = every;
    this.only = only;
  }

  /** A plain run: every message delivered once. */
  static Repeats none() {
    return new Repeats(false, Optional.empty());
  }

  /** Twice mode: every message handed over again after its commit, before its acknowledgement. */
  static Repeats every() {
    return new Repeats(true, Optional.empty());
  }

  /** A run of crash mode: the one point named, of either kind, and no other. */
  static Repeats only(String point) {
    return new Repeats(false, Optional.of(point));
  }

  /** Whether this run hands every message over again: twice mode. */
  boolean everyOne() {
    return every;
  }

  /** The point this run of crash mode crashes at; empty in a plain run and in twice mode. */
  Optional<String> point() {
    return only;
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
    return at(
            "between commit and acknowledgement: "
                + label
                + " "
                + id
                + " on "
                + queue
                + ", handled again")
        || every;
  }

  /** Whether a call of the scenario answered is made again under its identity. */
  boolean beforeAnswer(String endpoint, String identity) {
    return at(
            "between commit and answer: "
                + endpoint
                + " under identity "
                + identity
                + ", called again")
        || every;
  }

  /**
   * Whether an outbox entry published is published again instead of staying marked published.
   *
   * @param write the write whose entry it is, in words: {@code kit.orders 0c1d… at VERSION 1}
   */
  boolean beforeMarkedPublished(String write) {
    return at(
        "between publish and marking published: the outbox entry of "
            + write
            + ", published again");
  }

  /** Notes a point met, and answers whether it is this run's point, met for the first time. */
  private boolean at(String point) {
    boolean first = met.add(point);
    if (only.isEmpty() || !first || !only.get().equals(point)) return false;
    picked.add(point);
    return true;
  }

  /** The points this run met so far, repeated or not, in words, sorted. */
  List<String> met() {
    return List.copyOf(new TreeSet<>(met));
  }

  /** The points this run repeated a message at so far, in crash mode: its point once met. */
  List<String> picked() {
    return List.copyOf(new TreeSet<>(picked));
  }

  /**
   * The points a run of crash mode explores, in the order it explores them: every point met when
   * they are no more than the budget; else as many as the budget, chosen by the seed.
   */
  static List<String> chosen(List<String> points, int budget, long seed) {
    if (points.size() <= budget) return List.copyOf(new TreeSet<>(points));
    List<String> shuffled = new java.util.ArrayList<>(new TreeSet<>(points));
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = shuffled.size() - 1; i > 0; i--)
      java.util.Collections.swap(shuffled, i, random.nextInt(i + 1));
    return List.copyOf(new TreeSet<>(shuffled.subList(0, budget)));
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

  /**
   * The budget of crash mode: the one the test gives, else the system property {@value #BUDGET},
   * else {@value #DEFAULT_BUDGET}.
   *
   * @throws IllegalArgumentException when the property is set but is not a positive whole number
   */
  static int budget(Optional<Integer> given) {
    if (given.isPresent()) return given.get();
    String property = System.getProperty(BUDGET);
    if (property == null || property.isBlank()) return DEFAULT_BUDGET;
    try {
      int budget = Integer.parseInt(property.trim());
      if (budget > 0) return budget;
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new IllegalArgumentException(
        "system property "
            + BUDGET
            + " is how many points of a scenario crash mode explores, a whole number above 0; got '"
            + property
            + "'");
  }
}
