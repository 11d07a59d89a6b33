package io.toa4j.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters updated on every call and every delivery, each registered once and then found by its
 * name and tags in a map, rather than built again and looked up in the registry per update (which
 * was a measurable part of a call's CPU). Thread-safe.
 */
final class Meters {
  private final MeterRegistry registry;
  private final ConcurrentHashMap<List<String>, Timer> timers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<List<String>, Counter> counters = new ConcurrentHashMap<>();

  Meters(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * A timer with its histogram published, so that a Prometheus scrape carries buckets to take
   * percentiles from, not only a count, a sum and a maximum.
   */
  Timer timer(String name, String... tags) {
    return timers.computeIfAbsent(
        key(name, tags),
        key -> Timer.builder(name).tags(tags).publishPercentileHistogram().register(registry));
  }

  Counter counter(String name, String... tags) {
    return counters.computeIfAbsent(key(name, tags), key -> registry.counter(name, tags));
  }

  /** Counts one more of {@code name} for the operation ({@code component.operation}). */
  void count(String name, Component component, Operation operation) {
    counter(name, "operation", component.label() + "." + operation.name()).increment();
  }

  private static List<String> key(String name, String[] tags) {
    String[] key = Arrays.copyOf(new String[] {name}, tags.length + 1);
    System.arraycopy(tags, 0, key, 1, tags.length);
    return Arrays.asList(key);
  }
}
