package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import io.toa4j.spi.StoredRecord;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Giving up is an event, and operators act on parked messages in bulk: the same tests on every pair
 * of engines ({@link ParkedEventsTest}, {@link ParkedEventsDistributedTest}). {@code
 * test.orders.created} reaches {@code test.fussy.take} and {@code test.picky.pick}, whose inputs
 * take no negative amount, so a negative order parks one message in each at once ({@code
 * CONTRACT}); {@code test.pager.note} receives {@code system.messages.parked}, {@code .replayed}
 * and {@code .discarded}, writing one new record per event it gets.
 */
abstract class ParkedEventsContract {
  static final Duration SETTLE = Duration.ofSeconds(60);
  static final String FUSSY = "test.orders.created..test.fussy";
  static final String PICKY = "test.orders.created..test.picky";

  @TempDir Path directory;

  /** The options that choose the engines under test. */
  abstract Options options();

  /** A second bus on the context's, beside (or without) the running one. */
  abstract Bus secondBus();

  private Toa boot() {
    return Toa.builder().directory(directory).options(options()).build();
  }

  private Toa client() {
    return Toa.builder().directory(directory).options(options()).connect();
  }

  private static void order(Toa app, int n, long amount) {
    app.call("test.orders.place", Request.of(String.format("%032x", n), Map.of("amount", amount)));
  }

  /** The pager's notes: one per event it received, each as the event's payload told it. */
  private static List<JsonNode> notes(Toa app) {
    return app.storage().store("test.pager").page(1000, 0).stream()
        .map(ParkedEventsContract::state)
        .toList();
  }

  private static JsonNode state(StoredRecord record) {
    return Binding.object(record.state());
  }

  private static Map<String, Long> byState(List<JsonNode> notes) {
    return notes.stream()
        .collect(Collectors.groupingBy(n -> n.path("state").asString(), Collectors.counting()));
  }

  private static void settled(Toa app) {
    assertThat(app.admin().settle(SETTLE)).isEmpty();
  }

  @Test
  void parking_announcesOneEventPerParkedMessage_withItsIdentityTargetFailureAndTimes() {
    context(directory, false);
    long before = System.currentTimeMillis();
    try (Toa app = boot()) {
      order(app, 1, -5);
      order(app, 2, -6);
      order(app, 3, 7);
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 4);
      settled(app);

      List<Parked> parked = app.admin().parked();
      List<JsonNode> notes = notes(app);
      assertThat(notes).as("one event per parked message, and none for a handled one").hasSize(4);
      assertThat(notes)
          .extracting(n -> n.path("message").asString() + " " + n.path("queue").asString())
          .containsExactlyInAnyOrderElementsOf(
              parked.stream().map(p -> p.message().id() + " " + p.queue()).toList());
      JsonNode fussy =
          notes.stream()
              .filter(n -> n.path("queue").asString().equals(FUSSY))
              .findFirst()
              .orElseThrow();
      assertThat(fussy.path("state").asString()).isEqualTo("parked");
      assertThat(fussy.path("operation").asString()).isEqualTo("test.fussy.take");
      assertThat(fussy.path("label").asString()).isEqualTo("test.orders.created");
      assertThat(fussy.path("code").asString()).isEqualTo("CONTRACT");
      assertThat(fussy.path("reason").asString()).contains("amount");
      assertThat(fussy.path("attempts").asLong()).isEqualTo(1);
      long first = Instant.parse(fussy.path("firstFailure").asString()).toEpochMilli();
      long last = Instant.parse(fussy.path("lastFailure").asString()).toEpochMilli();
      assertThat(first).isBetween(before, System.currentTimeMillis()).isLessThanOrEqualTo(last);
      assertThat(notes)
          .filteredOn(n -> n.path("queue").asString().equals(PICKY))
          .extracting(n -> n.path("operation").asString())
          .containsOnly("test.picky.pick");
    }
  }

  @Test
  void parking_afterACrashBetweenParkingAndPublishing_isAnnouncedOnce() {
    context(directory, false);
    try (Toa app = boot()) { // declares the queues, as the process that dies had
      settled(app);
    }
    Message event =
        new Message(
            "00000000000000000000000000000abc",
            "test.orders.created",
            new Json("{\"id\":\"x\",\"amount\":-1}"),
            Map.of());
    // What a process leaves that committed the parking and died before its bus kept the park
    // verdict and before it published the event: the record parked, its entry unpublished, and the
    // message still on its queue.
    try (Toa client = client();
        Bus bus = secondBus()) {
      SystemMessages dead =
          new SystemMessages(
              client.context(),
              () -> client.storage().store(SystemMessages.LABEL),
              Redelivery.consumed(client.context()),
              Clock.systemUTC(),
              new SecureRandom(),
              Optional.empty());
      dead.parked(new Delivery(event, FUSSY, 1), "CONTRACT", "input /amount must be at least 0");
      bus.send(FUSSY, event);
    }

    try (Toa app = boot()) {
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
      settled(app);

      assertThat(notes(app))
          .as("the leftover entry published, the second parking committing nothing")
          .hasSize(1);
      assertThat(notes(app).get(0).path("message").asString()).isEqualTo(event.id());
      StoredRecord record =
          app.storage()
              .store(SystemMessages.LABEL)
              .read(SystemMessages.key(event.id(), FUSSY))
              .orElseThrow();
      assertThat(record.version()).isEqualTo(1);
    }
  }

  @Test
  void aFailingReceiverOfParkedEvents_isParked_andItsParkingNotAnnounced() {
    context(directory, true);
    try (Toa app = boot()) {
      order(app, 1, -5);
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 4);
      settled(app);

      assertThat(app.admin().parked())
          .extracting(Parked::queue)
          .containsExactlyInAnyOrder(
              FUSSY,
              PICKY,
              "system.messages.parked..test.broken",
              "system.messages.parked..test.broken");
      assertThat(notes(app))
          .as("the two parked orders announced; the broken receiver's parkings not")
          .hasSize(2);
    }
  }

  @Test
  void replay_filtered_putsBackTheMatchingOnes_andAnnouncesEach() {
    context(directory, false);
    try (Toa app = boot()) {
      for (int n = 1; n <= 3; n++) order(app, n, -n);
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 6);
      settled(app);

      ParkedFilter fussyTwo =
          new ParkedFilter(
              Optional.of("test.fussy"),
              Optional.empty(),
              Optional.of("CONTRACT"),
              Optional.empty(),
              2);
      assertThat(app.admin().parked(fussyTwo))
          .hasSize(2)
          .allSatisfy(p -> assertThat(p.queue()).isEqualTo(FUSSY));
      List<Parked> replayed = app.admin().replay(fussyTwo);

      assertThat(replayed).hasSize(2).allSatisfy(p -> assertThat(p.queue()).isEqualTo(FUSSY));
      await()
          .atMost(SETTLE)
          .until(() -> app.admin().parked().stream().filter(p -> p.attempts() == 2).count() == 2);
      settled(app);
      assertThat(app.admin().parked()).as("failing again, parked again").hasSize(6);
      assertThat(byState(notes(app))).containsEntry("parked", 8L).containsEntry("replayed", 2L);
      assertThat(notes(app))
          .filteredOn(n -> n.path("state").asString().equals("replayed"))
          .extracting(n -> n.path("message").asString())
          .containsExactlyInAnyOrderElementsOf(
              replayed.stream().map(p -> p.message().id()).toList());

      ParkedFilter later =
          new ParkedFilter(
              Optional.empty(),
              Optional.empty(),
              Optional.empty(),
              Optional.of(Instant.now().plusSeconds(3600)),
              100);
      assertThat(app.admin().replay(later)).as("nothing parked since").isEmpty();
      ParkedFilter otherCode =
          new ParkedFilter(
              Optional.empty(), Optional.empty(), Optional.of("SYSTEM"), Optional.empty(), 100);
      assertThat(app.admin().replay(otherCode)).isEmpty();
    }
  }

  @Test
  void discard_filtered_removesTheMatchingOnesForGood_keepingTheReason() {
    context(directory, false);
    try (Toa app = boot()) {
      for (int n = 1; n <= 3; n++) order(app, n, -n);
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 6);
      settled(app);

      ParkedFilter picks =
          new ParkedFilter(
              Optional.empty(), Optional.of("pick"), Optional.empty(), Optional.empty(), 100);
      List<Parked> discarded;
      try (Toa client = client()) { // as toa discard does it, beside the running context
        assertThatThrownBy(() -> client.admin().discard(picks, " "))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("reason");
        discarded = client.admin().discard(picks, "orders of a negative amount are a test's");
      }

      assertThat(discarded).hasSize(3).allSatisfy(p -> assertThat(p.queue()).isEqualTo(PICKY));
      assertThat(app.admin().parked()).extracting(Parked::queue).containsOnly(FUSSY).hasSize(3);
      await().atMost(SETTLE).until(() -> byState(notes(app)).getOrDefault("discarded", 0L) == 3);
      settled(app);
      assertThat(notes(app))
          .filteredOn(n -> n.path("state").asString().equals("discarded"))
          .allSatisfy(
              n ->
                  assertThat(n.path("discardReason").asString())
                      .isEqualTo("orders of a negative amount are a test's"));
      StoredRecord record =
          app.storage()
              .store(SystemMessages.LABEL)
              .read(SystemMessages.key(discarded.get(0).message().id(), PICKY))
              .orElseThrow();
      assertThat(state(record).path("state").asString()).isEqualTo("discarded");
      assertThat(record.version()).as("parked, then discarded").isEqualTo(2);

      Parked one = app.admin().parked().get(0);
      assertThat(app.admin().discard(one.id(), "one more")).isTrue();
      assertThat(app.admin().discard(one.id(), "again")).as("gone").isFalse();
      assertThat(app.admin().parked()).hasSize(2);
    }
  }

  /**
   * The context: {@code test.orders}; {@code test.fussy} and {@code test.picky}, whose operations
   * take only amounts of at least 0 from {@code test.orders.created}; {@code test.pager}, receiving
   * the events of {@code system.messages}; and, when {@code broken}, {@code test.broken}, whose
   * receiver of {@code system.messages.parked} cannot take its payload.
   */
  static Path context(Path directory, boolean broken) {
    Contexts.orders(directory);
    fussy(directory, "fussy", "take");
    fussy(directory, "picky", "pick");
    Contexts.write(
        directory,
        "components/test.pager/manifest.toa.yaml",
        """
        entity:
          properties:
            state: { type: string }
            message: { type: string }
            queue: { type: string }
            label: { type: string }
            operation: { type: string }
            code: { type: string }
            reason: { type: string }
            attempts: { type: integer }
            firstFailure: { type: string }
            lastFailure: { type: string }
            discardReason: { type: string }
        operations:
          note:
            input: { type: object }
        receivers:
          system.messages.parked: note
          system.messages.replayed: note
          system.messages.discarded: note
        """);
    Contexts.write(
        directory,
        "components/test.pager/Note.java",
        """
        package test.pager;
        public class Note extends io.toa4j.api.Entry {
          public String state = "", message = "", queue = "", label = "", operation = "", code = "", reason = "";
          public String firstFailure = "", lastFailure = "", discardReason = "";
          public long attempts;
        }
        """);
    Contexts.write(
        directory,
        "components/test.pager/operations/Note.java",
        """
        package test.pager.operations;
        public class Note implements io.toa4j.api.Transition<Note.Input, test.pager.Note> {
          public record Input(String state, String message, String queue, String label, String operation, String code,
              String reason, long attempts, String firstFailure, String lastFailure, String discardReason) {}
          public Object transition(Input in, test.pager.Note entry) {
            entry.state = in.state(); entry.message = in.message(); entry.queue = in.queue(); entry.label = in.label();
            entry.operation = in.operation(); entry.code = in.code(); entry.reason = in.reason(); entry.attempts = in.attempts();
            entry.firstFailure = in.firstFailure(); entry.lastFailure = in.lastFailure();
            entry.discardReason = in.discardReason() == null ? "" : in.discardReason();
            return entry;
          }
        }
        """);
    if (broken) {
      Contexts.write(
          directory,
          "components/test.broken/manifest.toa.yaml",
          """
          operations:
            mind:
              input:
                type: object
                properties:
                  never: { type: string }
                required: [never]
          receivers:
            system.messages.parked: mind
          """);
      Contexts.write(
          directory,
          "components/test.broken/operations/Mind.java",
          """
          package test.broken.operations;
          public class Mind implements io.toa4j.api.Computation<Mind.Input> {
            public record Input(String never) {}
            public Object computation(Input input) {
              return input.never();
            }
          }
          """);
    }
    return directory;
  }

  /**
   * {@code test.<name>}, whose computation {@code operation} receives test.orders.created and takes
   * no negative amount.
   */
  private static void fussy(Path directory, String name, String operation) {
    Contexts.write(
        directory,
        "components/test." + name + "/manifest.toa.yaml",
        """
        operations:
          %s:
            input:
              type: object
              properties:
                amount: { type: integer, minimum: 0 }
              required: [amount]
        receivers:
          test.orders.created: %s
        """
            .formatted(operation, operation));
    String type = Character.toUpperCase(operation.charAt(0)) + operation.substring(1);
    Contexts.write(
        directory,
        "components/test." + name + "/operations/" + type + ".java",
        """
        package test.%s.operations;
        public class %s implements io.toa4j.api.Computation<%s.Input> {
          public record Input(long amount) {}
          public Object computation(Input input) {
            return input.amount();
          }
        }
        """
            .formatted(name, type, type));
  }
}
