package io.toa4j.test.core;

import io.toa4j.spi.Parked;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * What a scenario left once settled, as twice mode compares it: every record of every component
 * with an entity (its properties, {@code id}, {@code VERSION}, {@code CREATED}, {@code UPDATED}),
 * the events announced (by label, how many, and their payloads), and the parked messages (by queue,
 * label and code).
 *
 * @param records by component, then by id, in the order they were created
 * @param events each announced once, oldest first
 * @param parked oldest first
 */
record Snapshot(
    Map<String, Map<String, Map<String, Object>>> records,
    List<Published> events,
    List<Parked> parked) {
  /**
   * One way this run ended differently from another.
   *
   * @param record the record's component and id, for a difference in a record; empty for an event
   *     or a parked message
   * @param property the record's property that differs ({@code exists} for a record only one run
   *     has), or, for an event, {@code announced} or {@code payload}, for a message, {@code parked}
   * @param text the difference in words, both values in it, ending with what it was in the other
   *     run
   */
  record Difference(Optional<Map.Entry<String, String>> record, String property, String text) {}

  /**
   * How this run, in which every message was delivered twice, ended differently from {@code once},
   * in which each was delivered once: one line per property of a record, per event label, per
   * parked message; none when they ended the same.
   *
   * @param writer the operation behind a record's difference, in words ({@code kit.tally.bump,
   *     given kit.orders.created again}), by component and id; empty when the kit does not know it
   */
  List<String> differences(Snapshot once, BiFunction<String, String, Optional<String>> writer) {
    List<String> lines = new ArrayList<>();
    for (Difference d : compare(once)) {
      String by =
          d.record()
              .flatMap(r -> writer.apply(r.getKey(), r.getValue()))
              .map(w -> w + ": ")
              .orElse("");
      lines.add(by + d.text());
    }
    return lines;
  }

  /**
   * How this run ended differently from {@code once}: records by component and id, then events,
   * then parked messages.
   */
  List<Difference> compare(Snapshot once) {
    List<Difference> found = new ArrayList<>();
    Set<String> components = new LinkedHashSet<>(records.keySet());
    components.addAll(once.records.keySet());
    for (String component : components) {
      Map<String, Map<String, Object>> twice = records.getOrDefault(component, Map.of());
      Map<String, Map<String, Object>> single = once.records.getOrDefault(component, Map.of());
      Set<String> ids = new LinkedHashSet<>(single.keySet());
      ids.addAll(twice.keySet());
      for (String id : ids) {
        Optional<Map.Entry<String, String>> at = Optional.of(Map.entry(component, id));
        String record = "record " + component + " " + id;
        if (!single.containsKey(id)) {
          found.add(
              new Difference(
                  at,
                  "exists",
                  record + " exists, and does not when delivered once: " + twice.get(id)));
        } else if (!twice.containsKey(id)) {
          found.add(
              new Difference(
                  at,
                  "exists",
                  record + " does not exist, and does when delivered once: " + single.get(id)));
        } else {
          properties(
              twice.get(id),
              single.get(id),
              (property, values) ->
                  found.add(
                      new Difference(
                          at,
                          property,
                          record
                              + " has "
                              + property
                              + " = "
                              + values[0]
                              + ", and "
                              + values[1]
                              + " when delivered once")));
        }
      }
    }
    events(once.events, found);
    parked(once.parked, found);
    return found;
  }

  /**
   * Each property whose values differ, with the value here and the value once; an absent one as
   * such.
   */
  private static void properties(
      Map<String, Object> twice, Map<String, Object> once, BiConsumer<String, Object[]> differs) {
    Set<String> names = new LinkedHashSet<>(once.keySet());
    names.addAll(twice.keySet());
    for (String name : names) {
      boolean here = twice.containsKey(name);
      boolean there = once.containsKey(name);
      if (here && there && Values.same(twice.get(name), once.get(name))) continue;
      differs.accept(
          name,
          new Object[] {here ? twice.get(name) : "(absent)", there ? once.get(name) : "(absent)"});
    }
  }

  /**
   * By label: how many times each was announced; for as many, the payloads announced here and not
   * once.
   */
  private void events(List<Published> once, List<Difference> found) {
    Map<String, List<Map<String, Object>>> twice = payloads(events);
    Map<String, List<Map<String, Object>>> single = payloads(once);
    Set<String> labels = new LinkedHashSet<>(single.keySet());
    labels.addAll(twice.keySet());
    for (String label : labels) {
      List<Map<String, Object>> here = twice.getOrDefault(label, List.of());
      List<Map<String, Object>> there = single.getOrDefault(label, List.of());
      if (here.size() != there.size()) {
        found.add(
            new Difference(
                Optional.empty(),
                "announced",
                "event "
                    + label
                    + " was announced "
                    + here.size()
                    + " time(s), and "
                    + there.size()
                    + " when delivered once"));
        continue;
      }
      List<Map<String, Object>> extra = without(here, there);
      List<Map<String, Object>> missing = without(there, here);
      for (int i = 0; i < extra.size(); i++) {
        found.add(
            new Difference(
                Optional.empty(),
                "payload",
                "event "
                    + label
                    + " was announced with "
                    + extra.get(i)
                    + ", and with "
                    + missing.get(i)
                    + " when delivered once"));
      }
    }
  }

  /**
   * The payloads by label, leaving out the runtime's own events of {@code system.messages}: what
   * they announce, the parked messages, is compared as such ({@link #parked}).
   */
  private static Map<String, List<Map<String, Object>>> payloads(List<Published> events) {
    Map<String, List<Map<String, Object>>> byLabel = new LinkedHashMap<>();
    for (Published e : events) {
      if (e.label().startsWith("system.messages.")) continue;
      byLabel.computeIfAbsent(e.label(), l -> new ArrayList<>()).add(e.payload());
    }
    return byLabel;
  }

  /** The payloads of {@code these} left when each of {@code those} takes away one equal to it. */
  private static List<Map<String, Object>> without(
      List<Map<String, Object>> these, List<Map<String, Object>> those) {
    List<Map<String, Object>> left = new ArrayList<>(these);
    for (Map<String, Object> payload : those) {
      for (int i = 0; i < left.size(); i++) {
        if (Values.same(left.get(i), payload)) {
          left.remove(i);
          break;
        }
      }
    }
    return left;
  }

  /** The messages parked in one run and not the other, by queue, label and code. */
  private void parked(List<Parked> once, List<Difference> found) {
    for (Parked p : unmatched(parked, once))
      found.add(
          new Difference(
              Optional.empty(),
              "parked",
              parked(p) + " was parked, and was not when delivered once"));
    for (Parked p : unmatched(once, parked))
      found.add(
          new Difference(
              Optional.empty(),
              "parked",
              parked(p) + " was not parked, and was when delivered once"));
  }

  private static String parked(Parked p) {
    return "message "
        + p.message().label()
        + " on "
        + p.queue()
        + " ("
        + p.code()
        + ": "
        + p.reason()
        + ")";
  }

  private static List<Parked> unmatched(List<Parked> these, List<Parked> those) {
    List<Parked> left = new ArrayList<>(these);
    for (Parked p : those) {
      for (int i = 0; i < left.size(); i++) {
        Parked q = left.get(i);
        if (q.queue().equals(p.queue())
            && q.message().label().equals(p.message().label())
            && q.code().equals(p.code())) {
          left.remove(i);
          break;
        }
      }
    }
    return left;
  }
}
