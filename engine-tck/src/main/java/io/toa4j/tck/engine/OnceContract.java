package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transactional inbox ({@link Contexts#ledger}): a call made again under its identity is
 * answered with its first answer and moves nothing, also when 16 twins race; two identities are two
 * calls; a refusal, a thrown failure and a discard record nothing, so the same call runs again; a
 * call that cannot be repeated safely is refused before it sends anything. The inbox's entries are
 * counted by the engine's own means ({@link #inbox()}). An engine's test extends this and chooses
 * the engines with {@link #engines()}.
 */
public abstract class OnceContract {
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";
  static final String FEED = "fedcba9876543210fedcba9876543210";

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The engines under test. */
  protected abstract Engines engines();

  /**
   * How many inbox entries the store of {@code test.ledger} holds, and how many of them still hold
   * their answer (as {@code EngineKit.ledgerInbox} counts them).
   */
  protected abstract long[] inbox() throws Exception;

  private Toa ledger(String once) {
    return engines().builder(Contexts.ledger(directory, once), Options.defaults()).build();
  }

  private static Request add(long amount, String mode) {
    return Request.of(ACCOUNT, Map.of("amount", amount, "mode", mode));
  }

  private static Map<String, Object> account(Toa app) {
    return Outputs.of(app.call("test.ledger.observe", Request.id(ACCOUNT)));
  }

  private static double counted(Toa app, String name, String... tags) {
    return app.metrics().find(name).tags(tags).counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  @Test
  void sameIdentityTwice_movesTheRecordOnce_andAnswersTheFirstAnswerBothTimes() {
    try (Toa app = ledger("true")) {
      Reply first = app.call("test.ledger.add", add(5000, "ok"), "call-1");
      Reply second = app.call("test.ledger.add", add(5000, "ok"), "call-1");

      assertThat(second).isEqualTo(first);
      assertThat(account(app)).containsEntry("balance", 5000L).containsEntry("VERSION", 1L);
      assertThat(counted(app, "toa.inbox.answers")).isEqualTo(1);
    }
  }

  @Test
  void twoIdentities_areTwoCalls() {
    try (Toa app = ledger("true")) {
      app.call("test.ledger.add", add(5000, "ok"));
      app.call("test.ledger.add", add(5000, "ok"));

      assertThat(account(app)).containsEntry("balance", 10000L).containsEntry("VERSION", 2L);
    }
  }

  @Test
  void sameIdentity16TimesAtOnce_movesTheRecordOnce_andAllGetTheSameAnswer() throws Exception {
    try (Toa app = ledger("true")) {
      app.call("test.ledger.add", add(1, "ok")); // the record exists: twins race on its version
      ExecutorService pool = Executors.newFixedThreadPool(16);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Reply>> replies = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        replies.add(
            pool.submit(
                (Callable<Reply>)
                    () -> {
                      start.await();
                      return app.call("test.ledger.add", add(5000, "ok"), "the-same-call");
                    }));
      }
      start.countDown();
      List<Reply> answers = new ArrayList<>();
      for (Future<Reply> r : replies) answers.add(r.get(60, TimeUnit.SECONDS));
      pool.shutdown();

      assertThat(answers).allSatisfy(a -> assertThat(a).isEqualTo(answers.get(0)));
      assertThat(account(app)).containsEntry("balance", 5001L).containsEntry("VERSION", 2L);
      assertThat(counted(app, "toa.inbox.answers") + counted(app, "toa.inbox.twins")).isEqualTo(15);
    }
  }

  @Test
  void refusalExceptionAndDiscard_recordNothing_soTheSameCallRunsAgain() throws Exception {
    try (Toa app = ledger("true")) {
      assertThat(app.call("test.ledger.add", add(7, "refuse"), "call-r"))
          .isInstanceOf(Reply.Refused.class);
      assertThat(app.call("test.ledger.add", add(7, "ok"), "call-r"))
          .isInstanceOf(Reply.Output.class);

      try {
        app.call("test.ledger.add", add(7, "throw"), "call-t");
      } catch (Failure expected) {
        assertThat(expected.code()).isEqualTo(Failure.Code.SYSTEM);
      }
      app.call("test.ledger.add", add(7, "ok"), "call-t");

      app.call("test.ledger.add", add(7, "discard"), "call-d");
      app.call("test.ledger.add", add(7, "ok"), "call-d");

      assertThat(account(app)).containsEntry("balance", 21L).containsEntry("VERSION", 3L);
      assertThat(inbox()[0]).as("inbox entries").isEqualTo(3);
    }
  }

  @Test
  void unrepeatable_isRefusedBeforeSending_onTheFirstAttempt_andNothingIsWritten() {
    try (Toa app = ledger("true")) {
      Failure failure = null;
      try {
        app.call("test.relay.eager", Request.of(FEED, Map.of("account", ACCOUNT, "amount", 42)));
      } catch (Failure f) {
        failure = f;
      }

      assertThat(failure).isNotNull();
      assertThat(failure.code()).isEqualTo(Failure.Code.UNREPEATABLE);
      assertThat(failure.code().isTransient()).isFalse();
      assertThat(failure)
          .hasMessageContaining("test.ledger.add")
          .hasMessageContaining("test.relay.eager")
          .hasMessageContaining("concurrency: none");
      assertThat(account(app)).containsEntry("VERSION", 0L);
      assertThat(Outputs.of(app.call("test.relay.observe", Request.id(FEED))))
          .containsEntry("VERSION", 0L);
    }
  }
}
