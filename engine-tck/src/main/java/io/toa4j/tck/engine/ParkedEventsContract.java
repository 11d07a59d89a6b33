package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Query;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.ParkedFilter;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.Parked;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Giving up is an event, and operators act on parked messages in bulk ({@link
 * Contexts#parkedEvents}): {@code test.orders.created} reaches {@code test.fussy.take} and {@code
 * test.picky.pick}, whose inputs take no negative amount, so a negative order parks one message in
 * each at once ({@code CONTRACT}); {@code test.pager.note} receives {@code system.messages.parked},
 * {@code .replayed} and {@code .discarded}, writing one new record per event it gets, read back
 * with its {@code enumerate}. An engine's test extends this and chooses the engines with {@link
 * #engines()}.
 */
public abstract class ParkedEventsContract {
  static final Duration SETTLE = Duration.ofSeconds(60);
  static final String FUSSY = "test.orders.created..test.fussy";
  static final String PICKY = "test.orders.created..test.picky";

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The engines under test. */
  protected abstract Engines engines();

  private Toa boot() {
    return engines().builder(directory, Options.defaults()).build();
  }

  /** The context hosting nothing, beside the running one, as {@code toa discard} opens it. */
  private Toa client() {
    return engines().builder(directory, Options.defaults()).connect();
  }

  private static void order(Toa app, int n, long amount) {
    app.call("test.orders.place", Request.of(String.format("%032x", n), Map.of("amount", amount)));
  }

  /** The pager's notes: one per event it received, each as the event's payload told it. */
  private static List<Map<String, Object>> notes(Toa app) {
    Reply reply =
        app.call(
            "test.pager.enumerate",
            new Request(Optional.of(Query.page(1000, 0)), Optional.empty()));
    assertThat(reply).isInstanceOf(Reply.Output.class);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> page =
        (List<Map<String, Object>>) ((Reply.Output) reply).value().orElseThrow();
    return page;
  }

  private static String text(Map<String, Object> note, String property) {
    Object value = note.get(property);
    return value == null ? "" : value.toString();
  }

  private static Map<String, Long> byState(List<Map<String, Object>> notes) {
    return notes.stream()
        .collect(Collectors.groupingBy(n -> text(n, "state"), Collectors.counting()));
  }

  private static void settled(Toa app) {
    assertThat(app.admin().settle(SETTLE)).isEmpty();
  }

  @Test
  void parking_announcesOneEventPerParkedMessage_withItsIdentityTargetFailureAndTimes() {
    Contexts.parkedEvents(directory, false);
    long before = System.currentTimeMillis();
    try (Toa app = boot()) {
      order(app, 1, -5);
      order(app, 2, -6);
      order(app, 3, 7);
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 4);
      settled(app);

      List<Parked> parked = app.admin().parked();
      List<Map<String, Object>> notes = notes(app);
      assertThat(notes).as("one event per parked message, and none for a handled one").hasSize(4);
      assertThat(notes)
          .extracting(n -> text(n, "message") + " " + text(n, "queue"))
          .containsExactlyInAnyOrderElementsOf(
              parked.stream().map(p -> p.message().id() + " " + p.queue()).toList());
      Map<String, Object> fussy =
          notes.stream().filter(n -> text(n, "queue").equals(FUSSY)).findFirst().orElseThrow();
      assertThat(text(fussy, "state")).isEqualTo("parked");
      assertThat(text(fussy, "operation")).isEqualTo("test.fussy.take");
      assertThat(text(fussy, "label")).isEqualTo("test.orders.created");
      assertThat(text(fussy, "code")).isEqualTo("CONTRACT");
      assertThat(text(fussy, "reason")).contains("amount");
      assertThat(((Number) fussy.get("attempts")).longValue()).isEqualTo(1);
      long first = Instant.parse(text(fussy, "firstFailure")).toEpochMilli();
      long last = Instant.parse(text(fussy, "lastFailure")).toEpochMilli();
      assertThat(first).isBetween(before, System.currentTimeMillis()).isLessThanOrEqualTo(last);
      assertThat(notes)
          .filteredOn(n -> text(n, "queue").equals(PICKY))
          .extracting(n -> text(n, "operation"))
          .containsOnly("test.picky.pick");
    }
  }

  @Test
  void aFailingReceiverOfParkedEvents_isParked_andItsParkingNotAnnounced() {
    Contexts.parkedEvents(directory, true);
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
    Contexts.parkedEvents(directory, false);
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
          .filteredOn(n -> text(n, "state").equals("replayed"))
          .extracting(n -> text(n, "message"))
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
    Contexts.parkedEvents(directory, false);
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
          .filteredOn(n -> text(n, "state").equals("discarded"))
          .extracting(n -> text(n, "message"))
          .containsExactlyInAnyOrderElementsOf(
              discarded.stream().map(p -> p.message().id()).toList());
      assertThat(notes(app))
          .filteredOn(n -> text(n, "state").equals("discarded"))
          .allSatisfy(
              n ->
                  assertThat(text(n, "discardReason"))
                      .isEqualTo("orders of a negative amount are a test's"));

      Parked one = app.admin().parked().get(0);
      assertThat(app.admin().discard(one.id(), "one more")).isTrue();
      assertThat(app.admin().discard(one.id(), "again")).as("gone").isFalse();
      assertThat(app.admin().parked()).hasSize(2);
    }
  }
}
