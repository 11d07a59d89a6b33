package io.toa4j.test;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.toa4j.api.Request;
import io.toa4j.runtime.ToaBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The kit's own test components, built in code — orders, and components that receive them — and how
 * a scenario class is run.
 */
final class Kit {
  static final String ORDER = "0c1d2e3f405162738495a6b7c8d9eaf0";

  static final String ORDERS =
      """
      entity:
        associated: true
        properties:
          item: { type: string }
      operations:
        place:
          concurrency: retry
          query: true
          input: { type: object, properties: { item: { type: string } }, required: [item] }
        rename:
          concurrency: retry
          query: true
          input: { type: object, properties: { item: { type: string } }, required: [item] }
      """;

  static final String MAILER =
      """
      operations:
        send:
          input: { type: object, properties: { item: { type: string } } }
      receivers:
        kit.orders.created: send
      """;

  /** Counts each order delivered by adding one, without once: a repeat counts it again. */
  static final String TALLY =
      """
      entity:
        associated: true
        properties:
          count: { type: integer }
      operations:
        bump:
          concurrency: retry
          query: true
          input: { type: object, properties: { item: { type: string } } }
      receivers:
        kit.orders.created: bump
      """;

  /** Counts each item once: the operation looks before it writes and discards a repeat. */
  static final String LOOKS =
      """
      entity:
        associated: true
        properties:
          count: { type: integer }
          items: { type: array, items: { type: string } }
      operations:
        count:
          concurrency: retry
          query: true
          input: { type: object, properties: { item: { type: string } } }
      receivers:
        kit.orders.created: count
      """;

  /** Writes a new note, its id minted, for each order: once answers a repeat. */
  static final String NOTES =
      """
      entity:
        properties:
          item: { type: string }
      operations:
        write:
          once: true
          input: { type: object, properties: { item: { type: string } } }
      receivers:
        kit.orders.created: write
      """;

  /** Takes each order, and throws on a repeat instead of discarding it. */
  static final String STRICT =
      """
      entity:
        associated: true
        properties:
          taken: { type: boolean }
      operations:
        take:
          concurrency: retry
          query: true
          input: { type: object, properties: { item: { type: string } } }
      receivers:
        kit.orders.created: take
      """;

  private Kit() {}

  /** The orders and one component that receives their creation, in a context named kit. */
  static Consumer<ToaBuilder> withOrders(String label, String manifest) {
    return b -> b.name("kit").component("kit.orders", ORDERS).component(label, manifest);
  }

  /** The two components, in a context named kit. */
  static void context(ToaBuilder b) {
    b.name("kit").component("kit.orders", ORDERS).component("kit.mailer", MAILER);
  }

  static Request place(String item) {
    return Request.of(ORDER, Map.of("item", item));
  }

  /**
   * Runs a scenario's test class through the JUnit Platform, as a build runs it, and answers what
   * it reported.
   */
  static TestExecutionSummary run(Class<?> scenario) {
    return run(scenario, new ArrayList<>());
  }

  /**
   * Runs a scenario's test class as {@link #run(Class)} does, adding to {@code reported} each
   * report entry its tests published, as {@code key: value}.
   */
  static TestExecutionSummary run(Class<?> scenario, List<String> reported) {
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    TestExecutionListener entries =
        new TestExecutionListener() {
          @Override
          public void reportingEntryPublished(TestIdentifier test, ReportEntry entry) {
            entry.getKeyValuePairs().forEach((key, value) -> reported.add(key + ": " + value));
          }
        };
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request().selectors(selectClass(scenario)).build(),
            listener,
            entries);
    return listener.getSummary();
  }

  /**
   * How many times the running context counted an operation in a metric: {@code toa.discards},
   * {@code toa.inbox.answers}.
   */
  static long counted(ToaContext toa, String metric, String operation) {
    return (long) toa.toa().metrics().counter(metric, "operation", operation).count();
  }
}
