package io.toa4j.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.runtime.Admin;
import io.toa4j.runtime.Outboxed;
import io.toa4j.runtime.ParkedFilter;
import io.toa4j.runtime.ParkedHistory;
import io.toa4j.runtime.ParkedPage;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.Parked;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What the console shows, as one JSON document: per component its operations with their calls,
 * errors, latency and inbox meters, its outbox backlog and its queues with their depth, verdicts
 * and delivery lag; the parked messages; the newest outbox entries.
 *
 * <p>The meters are this process's (its registry, as {@code /.toa/metrics} serves it): calls
 * counted where they ran, verdicts where the queue is consumed. The backlog, the queues' depth, the
 * parked messages and the outbox entries are asked of the storage and the bus, so they cover the
 * whole context, whichever process hosts what. Stateless; each document is built on request.
 */
final class ConsoleState {
  /** The newest outbox entries the console lists. */
  static final int OUTBOX = 20;

  /** The longest payload shown, in characters; a longer one is cut and says so. */
  static final int PAYLOAD = 4096;

  /** The longest failure reason a page's row shows, in characters; the message shows it whole. */
  static final int REASON = 200;

  /** How many parked messages a page shows unless asked, and the most it shows. */
  static final int PAGE = 25;

  static final int MOST = 200;

  /** The query string's fields that filter the parked messages. */
  static final Set<String> FILTER = Set.of("component", "operation", "code", "since", "search");

  /** Which page of the parked messages that match. */
  record Page(int offset, int size) {}

  private static final List<String> CALL_OUTCOMES =
      List.of("output", "replayed", "refused", "failed");
  private static final List<String> VERDICTS = List.of("delivered", "refused", "retried", "parked");

  private ConsoleState() {}

  /**
   * The filter of the query string's fields: each given one narrows; none given is every parked
   * message.
   *
   * @throws Problem 400 naming the field whose value is not one
   */
  static ParkedFilter filter(Map<String, String> fields) {
    return new ParkedFilter(
        text(fields, "component"),
        text(fields, "operation"),
        text(fields, "code"),
        text(fields, "since").map(ConsoleState::instant),
        text(fields, "search"),
        ParkedFilter.MOST);
  }

  /**
   * The page the query string's {@code offset} and {@code size} ask for: from 0, and from 1 to
   * {@value #MOST} ({@value #PAGE} unless asked).
   */
  static Page page(Map<String, String> fields) {
    return new Page(
        number(fields, "offset", 0, 0, Integer.MAX_VALUE), number(fields, "size", PAGE, 1, MOST));
  }

  private static Optional<String> text(Map<String, String> fields, String name) {
    return Optional.ofNullable(fields.get(name)).map(String::strip).filter(v -> !v.isEmpty());
  }

  private static Instant instant(String value) {
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new Problem(
          400,
          "CONTRACT",
          "the query string key 'since' is an instant such as 2026-12-07T10:00:00Z; got '"
              + value
              + "'");
    }
  }

  private static int number(Map<String, String> fields, String name, int absent, int min, int max) {
    String value = fields.get(name);
    if (value == null) return absent;
    try {
      int number = Integer.parseInt(value.strip());
      if (number >= min && number <= max) return number;
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new Problem(
        400,
        "CONTRACT",
        "the query string key '"
            + name
            + "' is a whole number from "
            + min
            + (max == Integer.MAX_VALUE ? " up" : " to " + max)
            + "; got '"
            + value
            + "'");
  }

  /**
   * The document, built now from the application's meters, storage and bus, with one page of the
   * parked messages that match the filter.
   */
  static Map<String, Object> of(Toa application, ParkedFilter filter, Page page) {
    Admin admin = application.admin();
    MeterRegistry meters = application.metrics();
    SortedMap<String, Long> backlogs = admin.backlogs();
    SortedMap<String, Admin.Queue> queues = admin.queues();
    ParkedPage parked = admin.parked(filter, page.offset(), page.size());
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("context", application.context().name());
    state.put("distributed", application.distributed());
    state.put("at", Instant.ofEpochMilli(application.clock().millis()).toString());
    List<Object> components = new ArrayList<>();
    for (ComponentManifest manifest : application.context().components()) {
      String label = manifest.label();
      Map<String, Object> component = new LinkedHashMap<>();
      component.put("label", label);
      component.put("hosted", application.hosted().contains(label));
      component.put("backlog", Optional.ofNullable(backlogs.get(label)).orElse(0L));
      List<Object> operations = new ArrayList<>();
      for (String operation : new TreeMap<>(manifest.operations()).keySet())
        operations.add(operation(meters, label + "." + operation, operation));
      component.put("operations", operations);
      List<Object> own = new ArrayList<>();
      for (Admin.Queue queue : queues.values()) {
        if (queue.component().equals(label))
          own.add(queue(meters, queue, parked.queues().getOrDefault(queue.name(), 0L)));
      }
      component.put("queues", own);
      components.add(component);
    }
    state.put("components", components);
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("total", parked.total());
    shown.put("matching", parked.matching());
    shown.put("offset", parked.offset());
    shown.put("size", page.size());
    shown.put("components", parked.components());
    shown.put("operations", parked.operations());
    shown.put("codes", parked.codes());
    shown.put(
        "rows", parked.rows().stream().map(r -> row(r.parked(), r.operation(), REASON)).toList());
    state.put("parked", shown);
    state.put(
        "outbox",
        admin.outbox(Optional.empty(), OUTBOX).stream().map(ConsoleState::entry).toList());
    return state;
  }

  private static Map<String, Object> operation(MeterRegistry meters, String endpoint, String name) {
    Map<String, Object> calls = new LinkedHashMap<>();
    long count = 0;
    double total = 0;
    double max = 0;
    for (String outcome : CALL_OUTCOMES) {
      Timer timer = meters.find("toa.call").tags("operation", endpoint, "outcome", outcome).timer();
      long n = timer == null ? 0 : timer.count();
      calls.put(outcome, n);
      if (timer == null) continue;
      count += n;
      total += timer.totalTime(TimeUnit.MILLISECONDS);
      max = Math.max(max, timer.max(TimeUnit.MILLISECONDS));
    }
    Map<String, Object> operation = new LinkedHashMap<>();
    operation.put("name", name);
    operation.put("calls", count);
    operation.put("outcomes", calls);
    operation.put("errors", calls.get("failed"));
    operation.put("meanMillis", count == 0 ? 0 : total / count);
    operation.put("maxMillis", max);
    operation.put("inboxAnswers", counted(meters, "toa.inbox.answers", "operation", endpoint));
    operation.put("twins", counted(meters, "toa.inbox.twins", "operation", endpoint));
    return operation;
  }

  private static Map<String, Object> queue(MeterRegistry meters, Admin.Queue queue, long parked) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("name", queue.name());
    shown.put("depth", queue.depth());
    shown.put("parked", parked);
    Map<String, Object> verdicts = new LinkedHashMap<>();
    for (String verdict : VERDICTS)
      verdicts.put(
          verdict, counted(meters, "toa.messages", "queue", queue.name(), "outcome", verdict));
    shown.put("verdicts", verdicts);
    Timer lag = meters.find("toa.delivery.lag").tags("queue", queue.name()).timer();
    shown.put("lagCount", lag == null ? 0 : lag.count());
    shown.put("lagMeanMillis", lag == null ? 0 : lag.mean(TimeUnit.MILLISECONDS));
    shown.put("lagMaxMillis", lag == null ? 0 : lag.max(TimeUnit.MILLISECONDS));
    return shown;
  }

  private static long counted(MeterRegistry meters, String name, String... tags) {
    Counter counter = meters.find(name).tags(tags).counter();
    return counter == null ? 0 : (long) counter.count();
  }

  /** A parked message whole, its payload with it; empty when none has the id. */
  static Optional<Map<String, Object>> message(Toa application, String id) {
    Admin admin = application.admin();
    return admin.parked().stream()
        .filter(p -> p.id().equals(id))
        .findFirst()
        .map(
            parked -> {
              Map<String, Object> shown = row(parked, admin.operation(parked), Integer.MAX_VALUE);
              String payload = parked.message().body().text();
              shown.put("payload", cut(payload, PAYLOAD));
              Optional<ParkedHistory> history = admin.history(parked);
              shown.put(
                  "failures",
                  history.map(ParkedHistory::failures).orElse(List.of()).stream()
                      .map(ConsoleState::failed)
                      .toList());
              shown.put("trace", history.flatMap(ParkedHistory::trace).orElse(null));
              shown.put(
                  "actions",
                  history.map(ParkedHistory::actions).orElse(List.of()).stream()
                      .map(ConsoleState::action)
                      .toList());
              shown.put(
                  "journal",
                  admin.journal(parked).stream()
                      .map(
                          step -> {
                            Map<String, Object> row = new LinkedHashMap<>();
                            row.put("asked", step.asked());
                            row.put("at", step.at().toString());
                            row.put("bytes", step.bytes());
                            return row;
                          })
                      .toList());
              return shown;
            });
  }

  private static Map<String, Object> failed(ParkedHistory.Failed failed) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("at", failed.at().toString());
    shown.put("attempt", failed.attempt());
    shown.put("code", failed.code());
    shown.put("reason", failed.reason());
    return shown;
  }

  private static Map<String, Object> action(ParkedHistory.Action action) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("at", action.at().toString());
    shown.put("action", action.action());
    shown.put("by", action.by());
    shown.put("reason", action.reason().orElse(null));
    return shown;
  }

  private static Map<String, Object> row(Parked parked, String operation, int reason) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("id", parked.id());
    shown.put("queue", parked.queue());
    shown.put("operation", operation);
    shown.put("label", parked.message().label());
    shown.put("message", parked.message().id());
    shown.put("code", parked.code());
    shown.put("reason", cut(parked.reason(), reason));
    shown.put("attempts", parked.attempts());
    shown.put("firstFailed", Instant.ofEpochMilli(parked.firstFailed()).toString());
    shown.put("parked", Instant.ofEpochMilli(parked.at()).toString());
    return shown;
  }

  private static String cut(String text, int most) {
    return text.length() <= most
        ? text
        : text.substring(0, most) + " ... (" + text.length() + " characters)";
  }

  private static Map<String, Object> entry(Outboxed entry) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("id", entry.id());
    shown.put("component", entry.component());
    shown.put("committed", entry.committed().toString());
    shown.put("published", entry.published().map(Instant::toString).orElse(null));
    shown.put("events", entry.events().stream().map(Outboxed.Message::label).toList());
    shown.put("tasks", entry.tasks().stream().map(Outboxed.Message::label).toList());
    return shown;
  }
}
