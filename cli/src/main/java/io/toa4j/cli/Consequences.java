package io.toa4j.cli;

import io.micrometer.core.instrument.Counter;
import io.toa4j.spi.Parked;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What went wrong with the messages a context handled while it was booted for one {@code toa call}
 * (the events and tasks the call caused, and any left over from before), one line each: a message
 * parked, with its code and reason; a queue whose deliveries failed and were retried. Never a stack
 * trace: the runtime's own log lines for these are off in {@code toa call} (see {@link
 * CallCommand}).
 */
final class Consequences {
  /** Longer reasons are cut: the whole one is in {@code toa parked}. */
  private static final int REASON = 300;

  private Consequences() {}

  /**
   * The lines for a context booted at {@code booted} (epoch milliseconds): messages parked since,
   * then queues with retries that parked nothing.
   */
  static List<String> of(io.toa4j.runtime.Toa application, long booted) {
    List<Parked> parked =
        application.admin().parked().stream().filter(p -> p.at() >= booted).toList();
    List<String> lines = new ArrayList<>();
    for (Parked p : parked) {
      lines.add(
          "toa: parked a message of "
              + p.queue()
              + " after "
              + attempts(p.attempts())
              + ": "
              + p.code()
              + ": "
              + oneLine(p.reason())
              + "; toa parked lists it, toa replay "
              + p.id()
              + " delivers it again");
    }
    Set<String> parkedQueues = parked.stream().map(Parked::queue).collect(Collectors.toSet());
    retried(application)
        .forEach(
            (queue, count) -> {
              if (!parkedQueues.contains(queue))
                lines.add(
                    "toa: "
                        + count
                        + " failed "
                        + (count == 1 ? "delivery" : "deliveries")
                        + " of "
                        + queue
                        + " retried");
            });
    return lines;
  }

  /** How many deliveries were retried, by queue, as the context's metrics counted them. */
  private static Map<String, Long> retried(io.toa4j.runtime.Toa application) {
    Map<String, Long> retried = new TreeMap<>();
    for (Counter counter :
        application.metrics().find("toa.messages").tag("outcome", "retried").counters()) {
      long count = (long) counter.count();
      String queue = counter.getId().getTag("queue");
      if (count > 0 && queue != null) retried.merge(queue, count, Long::sum);
    }
    return retried;
  }

  private static String attempts(int attempts) {
    return attempts == 1 ? "1 attempt" : attempts + " attempts";
  }

  private static String oneLine(String reason) {
    String line = reason == null ? "" : reason.strip().replaceAll("\\s*\\R\\s*", " ");
    return line.length() > REASON ? line.substring(0, REASON - 3) + "..." : line;
  }
}
