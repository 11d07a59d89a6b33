package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Request;
import io.toa4j.runtime.Admin;
import io.toa4j.runtime.CallIdentities;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Outboxed;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event already handled, delivered again on demand ({@link Admin#redeliver}): {@code
 * test.orders.created} reaches {@code test.tally.count}, which runs on every delivery, and {@code
 * test.purse.add}, which declares {@code once}. An engine's test extends this and chooses the
 * engines with {@link #engines()}.
 */
public abstract class RedeliveryContract {
  static final Duration SETTLE = Duration.ofSeconds(60);
  static final String ORDER = "0123456789abcdef0123456789abcdef";
  static final String TALLY = "fedcba9876543210fedcba9876543210";
  static final String PURSE = "00000000000000000000000000000001";
  static final String CREATED = "test.orders.created";

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The engines under test. */
  protected abstract Engines engines();

  private Toa boot() {
    return engines().builder(context(directory), Options.defaults()).build();
  }

  /**
   * A context that hosts nothing, opened beside (or without) a running one, as {@code toa
   * redeliver} opens it.
   */
  private Toa client() {
    return engines().builder(directory, Options.defaults()).connect();
  }

  private static Map<String, Object> tally(Toa app) {
    return Outputs.of(app.call("test.tally.observe", Request.id(TALLY)));
  }

  private static Map<String, Object> purse(Toa app) {
    return Outputs.of(app.call("test.purse.observe", Request.id(PURSE)));
  }

  private static double inboxAnswers(Toa app) {
    return app
        .metrics()
        .find("toa.inbox.answers")
        .tag("operation", "test.purse.add")
        .counters()
        .stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  private static void order(Toa app, String id, long amount) {
    app.call("test.orders.place", Request.of(id, Map.of("amount", amount)));
    assertThat(app.admin().settle(SETTLE)).isEmpty();
  }

  @Test
  void outbox_afterAHandledEvent_listsTheEntryPublished_withTheEventsMessageIdentity() {
    try (Toa app = boot()) {
      order(app, ORDER, 5);

      List<Outboxed> listed = app.admin().outbox(Optional.of("test.orders"), 10);

      assertThat(listed).hasSize(1);
      Outboxed entry = listed.get(0);
      assertThat(entry.component()).isEqualTo("test.orders");
      assertThat(entry.published()).as("the publisher marked it").isPresent();
      assertThat(entry.events())
          .containsExactly(
              new Outboxed.Message(CREATED, CallIdentities.event(entry.id(), CREATED)));
      assertThat(entry.tasks()).isEmpty();
      assertThat(app.admin().outbox(Optional.empty(), 10))
          .as("the receivers' writes announce nothing consumed")
          .containsExactly(entry);
    }
  }

  @Test
  void redeliver_aHandledEvent_runsAReceiverAgainUnderTheSameIdentity_andOnceAnswersFromItsInbox() {
    try (Toa app = boot()) {
      order(app, ORDER, 5);
      assertThat(tally(app)).containsEntry("count", 1L).containsEntry("VERSION", 1L);
      assertThat(purse(app)).containsEntry("balance", 5L).containsEntry("VERSION", 1L);
      String id = app.admin().outbox(Optional.of("test.orders"), 1).get(0).id();

      assertThat(app.admin().redeliver(id)).contains("test.orders");
      assertThat(app.admin().settle(SETTLE)).isEmpty();

      Map<String, Object> tally = tally(app);
      assertThat(tally)
          .as("a receiver without once runs again")
          .containsEntry("count", 2L)
          .containsEntry("VERSION", 2L);
      assertThat((Map<?, ?>) tally.get("identities"))
          .as("the same delivery identity both times")
          .hasSize(1);
      assertThat(purse(app))
          .as("once answers the repeat: nothing applied twice")
          .containsEntry("balance", 5L)
          .containsEntry("VERSION", 1L);
      assertThat(inboxAnswers(app)).isEqualTo(1);
      assertThat(app.admin().outbox(Optional.of("test.orders"), 1).get(0).published()).isPresent();
    }
  }

  @Test
  void redeliver_anUnknownId_answersNoneAndChangesNothing() {
    try (Toa app = boot()) {
      order(app, ORDER, 5);
      Outboxed before = app.admin().outbox(Optional.empty(), 10).get(0);

      assertThat(app.admin().redeliver("ffffffffffffffffffffffffffffffff")).isEmpty();
      assertThat(app.admin().redeliver("not an id")).isEmpty();

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(app.admin().outbox(Optional.empty(), 10)).containsExactly(before);
      assertThat(tally(app)).containsEntry("count", 1L);
    }
  }

  @Test
  void redeliverLast_ofAComponent_deliversItsNewestEntriesAgain_andNoOther() {
    try (Toa app = boot()) {
      order(app, "00000000000000000000000000000011", 1);
      order(app, "00000000000000000000000000000012", 2);
      order(app, "00000000000000000000000000000013", 3);
      List<Outboxed> listed = app.admin().outbox(Optional.of("test.orders"), 3);

      List<String> again = app.admin().redeliverLast("test.orders", 2);

      assertThat(again).as("oldest first").containsExactly(listed.get(1).id(), listed.get(0).id());
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(tally(app)).containsEntry("count", 5L);
      assertThat(purse(app)).containsEntry("balance", 6L).containsEntry("VERSION", 3L);
      assertThat(inboxAnswers(app)).isEqualTo(2);
    }
  }

  @Test
  void outboxAndRedeliverLast_refuseAComponentThatIsNotThere_orKeepsNoState() {
    try (Toa app = boot()) {
      assertThatThrownBy(() -> app.admin().redeliverLast("test.nothing", 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "Context test has no component 'test.nothing'; it has test.orders, test.purse, test.relay, test.tally");
      assertThatThrownBy(() -> app.admin().outbox(Optional.of("test.relay"), 1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Component test.relay keeps no state, so it has no outbox");
      assertThatThrownBy(() -> app.admin().redeliverLast("test.orders", 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the number of outbox entries to deliver again is from 1 to 1000; got 0");
    }
  }

  @Test
  void redeliver_fromAContextThatHostsNothing_isPublishedByTheRunningOne() {
    try (Toa app = boot()) {
      order(app, ORDER, 5);

      try (Toa client = client()) {
        String id = client.admin().outbox(Optional.empty(), 1).get(0).id();
        assertThat(client.admin().redeliver(id)).contains("test.orders");
      }

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(tally(app)).containsEntry("count", 2L);
      assertThat(purse(app)).containsEntry("VERSION", 1L);
    }
  }

  @Test
  void redeliver_whileNoProcessRuns_isPublishedWhenOneStarts() {
    try (Toa app = boot()) {
      order(app, ORDER, 5);
    }
    try (Toa client = client()) {
      assertThat(client.admin().redeliverLast("test.orders", 1)).hasSize(1);
    }
    try (Toa app = boot()) {
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(tally(app)).containsEntry("count", 2L);
      assertThat(purse(app)).containsEntry("balance", 5L).containsEntry("VERSION", 1L);
    }
  }

  @Test
  void backlogsAndQueues_coverEveryComponentAndQueueOfTheContext_seenFromAProcessThatHostsNone() {
    try (Toa app = boot()) {
      order(app, ORDER, 5);

      assertThat(app.admin().backlogs())
          .as("every component with an entity, nothing waiting")
          .containsExactly(
              Map.entry("test.orders", 0L),
              Map.entry("test.purse", 0L),
              Map.entry("test.tally", 0L));
      assertThat(app.admin().queues().values())
          .contains(
              new Admin.Queue("test.orders.created..test.tally", "test.tally", 0),
              new Admin.Queue("test.orders.created..test.purse", "test.purse", 0),
              new Admin.Queue("test.orders..tasks", "test.orders", 0),
              new Admin.Queue("test.relay..tasks", "test.relay", 0));
    }
    try (Toa client = client()) {
      client.admin().redeliverLast("test.orders", 1);

      assertThat(client.admin().backlogs())
          .as("counted on the storage, not by a publisher")
          .containsEntry("test.orders", 1L);
    }
  }

  /**
   * {@code test.orders}, whose {@code place} creates an order of an amount; {@code test.tally},
   * whose {@code count} receives {@code test.orders.created} and counts every delivery on one
   * record, noting the identities it was called under; {@code test.purse}, whose {@code add} (once)
   * receives the same event and adds its amount to one balance; and {@code test.relay}, a component
   * without state.
   */
  static Path context(Path directory) {
    Contexts.orders(directory);
    receiving(
        directory,
        "tally",
        "count",
        "",
        """
        count: { type: integer }
        identities: { type: object, additionalProperties: { type: boolean } }
        """,
        TALLY);
    Contexts.write(
        directory,
        "components/test.tally/Tally.java",
        """
        package test.tally;
        public class Tally extends io.toa4j.api.Entry {
          public long count;
          public java.util.Map<String, Boolean> identities = new java.util.LinkedHashMap<>();
        }
        """);
    Contexts.write(
        directory,
        "components/test.tally/operations/Count.java",
        """
        package test.tally.operations;
        import test.tally.Tally;
        public class Count implements io.toa4j.api.Transition<Count.Input, Tally> {
          public record Input(long amount) {}
          public Object transition(Input input, Tally entry, io.toa4j.api.Context context) {
            entry.count++;
            entry.identities.put(context.identity(), true);
            return entry;
          }
        }
        """);
    receiving(
        directory,
        "purse",
        "add",
        "once: true",
        """
        balance: { type: integer }
        """,
        PURSE);
    Contexts.write(
        directory,
        "components/test.purse/Purse.java",
        """
        package test.purse;
        public class Purse extends io.toa4j.api.Entry {
          public long balance;
        }
        """);
    Contexts.write(
        directory,
        "components/test.purse/operations/Add.java",
        """
        package test.purse.operations;
        import test.purse.Purse;
        public class Add implements io.toa4j.api.Transition<Add.Input, Purse> {
          public record Input(long amount) {}
          public Object transition(Input input, Purse entry) {
            entry.balance += input.amount();
            return entry;
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.relay/manifest.toa.yaml",
        """
        operations:
          echo:
            input: { type: object }
        """);
    Contexts.write(
        directory,
        "components/test.relay/operations/Echo.java",
        """
        package test.relay.operations;
        public class Echo implements io.toa4j.api.Computation<Object> {
          public Object computation(Object input) {
            return input;
          }
        }
        """);
    return directory;
  }

  /**
   * The manifest of {@code test.<name>}, whose {@code operation} (a transition, retried, with
   * {@code once} as given) receives {@code test.orders.created}, and the receiver that calls it on
   * the record {@code id} with the order's amount.
   */
  private static void receiving(
      Path directory, String name, String operation, String once, String properties, String id) {
    Contexts.write(
        directory,
        "components/test." + name + "/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
        %s
        operations:
          %s:
            concurrency: retry
            %s
            query: true
            input:
              type: object
              properties:
                amount: { type: integer }
              required: [amount]
        receivers:
          test.orders.created: %s
        """
            .formatted(properties.indent(4).stripTrailing(), operation, once, operation));
    Contexts.write(
        directory,
        "components/test." + name + "/receivers/TestOrdersCreated.java",
        """
        package test.%s.receivers;
        import io.toa4j.api.*;
        import java.util.Map;
        public class TestOrdersCreated implements Receiver<TestOrdersCreated.Order> {
          public record Order(long amount) {}
          public Request request(Order order) {
            return Request.of(Query.id("%s"), Map.of("amount", order.amount()));
          }
        }
        """
            .formatted(name, id));
  }
}
