package io.toa4j.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.runtime.Admin;
import io.toa4j.runtime.Outboxed;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.Parked;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  private static final List<String> CALL_OUTCOMES =
      List.of("output", "replayed", "refused", "failed");
  private static final List<String> VERDICTS = List.of("delivered", "refused", "retried", "parked");

  private ConsoleState() {}

  /** The document, built now from the application's meters, storage and bus. */
  static Map<String, Object> of(Toa application) {
    Admin admin = application.admin();
    MeterRegistry meters = application.metrics();
    SortedMap<String, Long> backlogs = admin.backlogs();
    SortedMap<String, Admin.Queue> queues = admin.queues();
    List<Parked> parked = admin.parked();
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
        if (queue.component().equals(label)) own.add(queue(meters, queue, parked));
      }
      component.put("queues", own);
      components.add(component);
    }
    state.put("components", components);
    state.put("parked", parked.stream().map(ConsoleState::parked).toList());
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

  private static Map<String, Object> queue(
      MeterRegistry meters, Admin.Queue queue, List<Parked> parked) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("name", queue.name());
    shown.put("depth", queue.depth());
    shown.put("parked", parked.stream().filter(p -> p.queue().equals(queue.name())).count());
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

  private static Map<String, Object> parked(Parked parked) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("id", parked.id());
    shown.put("queue", parked.queue());
    shown.put("label", parked.message().label());
    shown.put("message", parked.message().id());
    shown.put("code", parked.code());
    shown.put("reason", parked.reason());
    shown.put("attempts", parked.attempts());
    shown.put("firstFailed", Instant.ofEpochMilli(parked.firstFailed()).toString());
    shown.put("parked", Instant.ofEpochMilli(parked.at()).toString());
    String payload = parked.message().body().text();
    shown.put(
        "payload",
        payload.length() <= PAYLOAD
            ? payload
            : payload.substring(0, PAYLOAD) + " ... (" + payload.length() + " characters)");
    return shown;
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
