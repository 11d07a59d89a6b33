package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.CallIdentities;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Outboxed;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task sent by an operation leaves with its commit and never before: {@code test.notes.note}
 * counts what reached it, and the task queue's deliveries count what was sent. An engine's test
 * extends this and names the engines with {@link #engines()}.
 */
public abstract class TaskOutboxContract {
  static final Duration SETTLE = Duration.ofSeconds(60);
  static final String PARCEL = "0123456789abcdef0123456789abcdef";
  static final String NOTES = "fedcba9876543210fedcba9876543210";
  static final String QUEUE = "test.notes..tasks";

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The engines under test. */
  protected abstract Engines engines();

  private Toa boot() {
    return engines().builder(Contexts.courier(directory), Options.defaults()).build();
  }

  private static Request parcel(String mode) {
    return Request.of(PARCEL, Map.of("mode", mode, "note", "hello"));
  }

  private static Map<String, Object> notes(Toa app) {
    return Outputs.of(app.call("test.notes.observe", Request.id(NOTES)));
  }

  private static Map<String, Object> courier(Toa app) {
    return Outputs.of(app.call("test.courier.observe", Request.id(PARCEL)));
  }

  /** How many task messages the notes' queue delivered. */
  private static double sent(Toa app) {
    return app.metrics().find("toa.messages").tag("queue", QUEUE).counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  private static void assertNothingSent(Toa app) {
    assertThat(app.admin().settle(SETTLE)).isEmpty();
    assertThat(sent(app)).as("task messages delivered").isZero();
    assertThat(notes(app)).containsEntry("VERSION", 0L);
  }

  @Test
  void transition_sendingATaskThenRefusing_sendsNothing() {
    try (Toa app = boot()) {
      Reply reply = app.call("test.courier.dispatch", parcel("refuse"));

      assertThat(reply).isInstanceOf(Reply.Refused.class);
      assertNothingSent(app);
    }
  }

  @Test
  void transition_sendingATaskThenThrowing_sendsNothing() {
    try (Toa app = boot()) {
      assertThatThrownBy(() -> app.call("test.courier.dispatch", parcel("throw")))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.SYSTEM));

      assertNothingSent(app);
    }
  }

  @Test
  void transition_sendingATaskThenDiscarding_sendsNothing() {
    try (Toa app = boot()) {
      app.call("test.courier.dispatch", parcel("discard"));

      assertNothingSent(app);
      assertThat(courier(app)).containsEntry("VERSION", 0L);
    }
  }

  @Test
  void transition_committing_sendsItsTaskOnce_underTheFirstDerivedIdentity() {
    try (Toa app = boot()) {
      app.call("test.courier.dispatch", parcel("ok"), "call-ok");

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(sent(app)).isEqualTo(1);
      assertThat(notes(app))
          .containsEntry("received", 1L)
          .containsEntry("identities", Map.of(CallIdentities.nth("call-ok", 1), true));
    }
  }

  /**
   * The first attempt calls bump on its own record (ordinal 1) and sends its task (ordinal 2), then
   * loses its compare-and-swap to the bump; the second attempt, on the bumped record, sends its
   * task as ordinal 1 and commits. Only that task leaves; delivered again, the whole call sends the
   * same identity, which the notes' inbox recognises.
   */
  @Test
  void
      transition_losingItsCompareAndSwap_sendsTheCommittedAttemptsTaskOnce_andTheSameIdentityWhenCalledAgain() {
    try (Toa app = boot()) {
      app.call("test.courier.dispatch", parcel("race"), "call-race");

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(courier(app))
          .containsEntry("bumped", true)
          .containsEntry("dispatched", 1L)
          .containsEntry("VERSION", 2L);
      assertThat(sent(app)).as("the lost attempt's task never left").isEqualTo(1);
      Map<String, Object> once = Map.of(CallIdentities.nth("call-race", 1), true);
      assertThat(notes(app)).containsEntry("received", 1L).containsEntry("identities", once);

      app.call("test.courier.dispatch", parcel("race"), "call-race");

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(courier(app)).containsEntry("dispatched", 2L);
      assertThat(sent(app)).isEqualTo(2);
      assertThat(notes(app))
          .as("the copy carried the same identity")
          .containsEntry("received", 1L)
          .containsEntry("identities", once);
      assertThat(
              app.metrics()
                  .find("toa.inbox.answers")
                  .tag("operation", "test.notes.note")
                  .counter()
                  .count())
          .isEqualTo(1);
    }
  }

  /**
   * A committed dispatch's entry, listed with its task and delivered again: the task goes again
   * under its identity, though the courier announces no event, and the notes' once answers it.
   */
  @Test
  void committedTask_redelivered_isSentAgainUnderItsIdentity_andOnceAnswersIt() {
    try (Toa app = boot()) {
      app.call("test.courier.dispatch", parcel("ok"), "call-again");
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      String identity = CallIdentities.nth("call-again", 1);
      List<Outboxed> listed = app.admin().outbox(Optional.of("test.courier"), 10);
      assertThat(listed).hasSize(1);
      assertThat(listed.get(0).events()).isEmpty();
      assertThat(listed.get(0).tasks())
          .containsExactly(new Outboxed.Message("test.notes.note", identity));

      assertThat(app.admin().redeliver(listed.get(0).id())).contains("test.courier");

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(sent(app)).as("the task went again").isEqualTo(2);
      assertThat(notes(app))
          .containsEntry("received", 1L)
          .containsEntry("identities", Map.of(identity, true))
          .containsEntry("VERSION", 1L);
      assertThat(
              app.metrics()
                  .find("toa.inbox.answers")
                  .tag("operation", "test.notes.note")
                  .counter()
                  .count())
          .isEqualTo(1);
    }
  }

  /** Copies of one call of a once transition race: one commits, and only its task is sent. */
  @Test
  void onceTwins_racing_sendOnlyTheWinnersTask() throws Exception {
    int twins = 8;
    try (Toa app = boot()) {
      ExecutorService pool = Executors.newFixedThreadPool(twins);
      try {
        CyclicBarrier start = new CyclicBarrier(twins);
        List<Future<Reply>> replies = new ArrayList<>();
        for (int i = 0; i < twins; i++) {
          replies.add(
              pool.submit(
                  () -> {
                    start.await(60, TimeUnit.SECONDS);
                    return app.call("test.courier.hand", parcel("ok"), "call-twin");
                  }));
        }
        for (Future<Reply> reply : replies)
          assertThat(reply.get(60, TimeUnit.SECONDS)).isInstanceOf(Reply.Output.class);
      } finally {
        pool.shutdownNow();
      }

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(courier(app)).containsEntry("dispatched", 1L).containsEntry("VERSION", 1L);
      assertThat(sent(app)).isEqualTo(1);
      assertThat(notes(app))
          .containsEntry("received", 1L)
          .containsEntry("identities", Map.of(CallIdentities.nth("call-twin", 1), true));
    }
  }

  @Test
  void effect_sendsItsTaskAfterItsOutput_andNothingWhenItRefusesOrThrows() {
    try (Toa app = boot()) {
      assertThat(
              app.call("test.courier.send", Request.input(Map.of("mode", "refuse", "note", "no"))))
          .isInstanceOf(Reply.Refused.class);
      assertThatThrownBy(
              () ->
                  app.call(
                      "test.courier.send", Request.input(Map.of("mode", "throw", "note", "no"))))
          .isInstanceOf(Failure.class);
      assertNothingSent(app);

      app.call(
          "test.courier.send", Request.input(Map.of("mode", "ok", "note", "yes")), "call-effect");

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(sent(app)).isEqualTo(1);
      assertThat(notes(app))
          .containsEntry("identities", Map.of(CallIdentities.nth("call-effect", 1), true));
    }
  }
}
