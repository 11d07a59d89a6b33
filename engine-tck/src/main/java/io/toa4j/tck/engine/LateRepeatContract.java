package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code once} call repeated after its answer's window: refused as {@code ALREADY_ANSWERED} while
 * the record that it was answered is kept, run again only once that is forgotten; and the inbox
 * holds about one window of each whatever the load. An engine's test extends this, names the
 * engines with {@link #engines()} and counts the inbox by the engine's own means with {@link
 * #inbox()}.
 */
public abstract class LateRepeatContract {
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";

  /** The ledger's add answers repeats for 10 minutes and knows it answered them for 20. */
  static final String WINDOWS = "{ retention: 600, remember: 1200 }";

  /**
   * The folder of the test's own, where its context is written; on the embedded engine its state is
   * under {@code .toa/} there.
   */
  @TempDir protected Path directory;

  /** The clock the context runs on, moved by the tests. */
  protected final TestClock clock = new TestClock();

  /** The engines under test. */
  protected abstract Engines engines();

  /**
   * How many inbox entries the store of the component {@code test.ledger} holds, and how many of
   * them still hold their answer (the SPI has no such question: the engine's test answers it by its
   * own means).
   */
  protected abstract long[] inbox() throws Exception;

  private Toa ledger() {
    return engines()
        .builder(Contexts.ledger(directory, WINDOWS), Options.defaults().withClock(clock))
        .build();
  }

  private static Request add(long amount) {
    return Request.of(ACCOUNT, Map.of("amount", amount, "mode", "ok"));
  }

  private static Map<String, Object> account(Toa app) {
    return Outputs.of(app.call("test.ledger.observe", Request.id(ACCOUNT)));
  }

  @Test
  void repeat_isAnsweredInsideItsWindow_alreadyAnsweredAfterIt_andRunsAgainOnlyOnceForgotten() {
    try (Toa app = ledger()) {
      Instant answered = clock.instant();
      Reply first = app.call("test.ledger.add", add(10), "call-1");
      clock.advance(Duration.ofSeconds(599));
      assertThat(app.call("test.ledger.add", add(10), "call-1")).isEqualTo(first);

      clock.advance(Duration.ofSeconds(2));
      assertThatThrownBy(() -> app.call("test.ledger.add", add(10), "call-1"))
          .isInstanceOfSatisfying(
              Failure.class,
              f -> {
                assertThat(f.code()).isEqualTo(Failure.Code.ALREADY_ANSWERED);
                assertThat(f.code().status()).isEqualTo(410);
                assertThat(f.details())
                    .containsEntry("answered", answered.toString())
                    .containsEntry("component", "test.ledger")
                    .containsEntry("record", ACCOUNT)
                    .containsEntry("identity", "call-1");
                assertThat(f)
                    .hasMessageContaining("test.ledger.add")
                    .hasMessageContaining(answered.toString())
                    .hasMessageContaining(ACCOUNT);
              });
      assertThatThrownBy(() -> app.call("test.ledger.add", add(11), "call-1"))
          .as("another request under the identity is still refused as a reuse")
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.IDENTITY_REUSED));
      assertThat(account(app)).containsEntry("balance", 10L).containsEntry("VERSION", 1L);

      clock.advance(Duration.ofSeconds(600));
      app.call("test.ledger.add", add(10), "call-1");
      assertThat(account(app))
          .as("forgotten: the identity is new again")
          .containsEntry("balance", 20L)
          .containsEntry("VERSION", 2L);
      assertThat(app.call("test.ledger.add", add(10), "call-1")).isInstanceOf(Reply.Output.class);
      assertThat(account(app)).containsEntry("balance", 20L);
    }
  }

  @Test
  void inbox_underSustainedLoad_holdsAboutOneWindowOfAnswersAndOneOfRecords() throws Exception {
    int perMinute = 50;
    int minutes = 40;
    try (Toa app = ledger()) {
      for (int minute = 0; minute < minutes; minute++) {
        for (int i = 0; i < perMinute; i++)
          app.call("test.ledger.add", add(1), "call-" + minute + "-" + i);
        clock.advance(Duration.ofSeconds(60));
      }
      // answers of the last 10 minutes, records of the last 20 (the 40th minute's calls are 60 s
      // old)
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                long[] inbox = inbox();
                assertThat(inbox[0]).as("entries").isEqualTo(19L * perMinute);
                assertThat(inbox[1]).as("entries holding their answer").isEqualTo(9L * perMinute);
              });
      assertThat(account(app)).containsEntry("balance", (long) perMinute * minutes);
      assertThatThrownBy(() -> app.call("test.ledger.add", add(1), "call-" + (minutes - 15) + "-0"))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ALREADY_ANSWERED));
    }
  }
}
