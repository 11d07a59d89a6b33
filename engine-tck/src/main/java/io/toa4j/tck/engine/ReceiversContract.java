package io.toa4j.tck.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.Parked;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events through receivers ({@link Contexts#sourceAndSink}): a source component announces every
 * write, a sink component receives them and fails, refuses or succeeds as each event's payload
 * says. A delivery that throws is retried, here after no delay ({@code retryDelays} of zero, so the
 * suite runs in real time on any bus), and parked after five attempts; a refusal is neither retried
 * nor parked; a request the target's schema refuses, and code that cannot link, are parked at once.
 * An engine's test extends this and chooses the engines with {@link #engines()}.
 */
public abstract class ReceiversContract {
  static final Duration SETTLE = Duration.ofSeconds(60);
  static final String A = "0123456789abcdef0123456789abcdef";

  /** The folder of the test's own, where its context is written. */
  @TempDir protected Path directory;

  /** The engines under test. */
  protected abstract Engines engines();

  private Toa boot() {
    return engines().builder(Contexts.sourceAndSink(directory), Options.defaults()).build();
  }

  /** The context with retries after no delay: four of them, then the message is parked. */
  private Toa bootRetryingAtOnce() {
    return engines()
        .builder(Contexts.sourceAndSink(directory), Options.defaults())
        .retryDelays(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO)
        .build();
  }

  private static Request emit(int failures, boolean refuse) {
    return Request.of(A, Map.of("failures", failures, "refuse", refuse));
  }

  private static Map<String, Object> sink(Toa app) {
    return Outputs.of(app.call("test.sinks.observe", Request.id(A)));
  }

  private static double counted(Toa app, String outcome) {
    return app.metrics().find("toa.messages").tag("outcome", outcome).counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  @Test
  void receiver_throwingTwice_isRetriedAndSucceeds() {
    try (Toa app = bootRetryingAtOnce()) {
      app.call("test.sources.emit", emit(2, false));

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(sink(app)).containsEntry("received", 1L).containsEntry("VERSION", 1L);
      assertThat(counted(app, "retried")).isEqualTo(2);
      assertThat(app.admin().parked()).isEmpty();
    }
  }

  @Test
  void receiver_alwaysThrowing_isParkedAfterFiveAttempts_andReplayRunsItAgain() {
    try (Toa app = bootRetryingAtOnce()) {
      app.call("test.sources.emit", emit(5, false));

      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
      Parked parked = app.admin().parked().get(0);
      assertThat(parked.attempts()).isEqualTo(5);
      assertThat(parked.code()).isEqualTo("SYSTEM");
      assertThat(parked.reason())
          .isEqualTo("test.sinks.absorb threw java.lang.IllegalStateException: failure 5 of 5");
      assertThat(parked.queue()).isEqualTo("test.sources.created..test.sinks");
      assertThat(sink(app)).containsEntry("VERSION", 0L);

      assertThat(app.admin().replay(parked.id())).isTrue();
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(sink(app)).containsEntry("received", 1L);
      assertThat(app.admin().parked()).isEmpty();
    }
  }

  @Test
  void parked_survivesARestart() {
    try (Toa app = bootRetryingAtOnce()) {
      app.call("test.sources.emit", emit(99, false));
      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
    }
    try (Toa app = bootRetryingAtOnce()) {
      assertThat(app.admin().parked()).hasSize(1).first().extracting(Parked::attempts).isEqualTo(5);
    }
  }

  @Test
  void event_reachesTheReceiver_whichCallsItsOperation() {
    try (Toa app = boot()) {
      app.call("test.sources.emit", emit(0, false));

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(sink(app)).containsEntry("received", 1L).containsEntry("VERSION", 1L);
      assertThat(counted(app, "delivered")).isEqualTo(1);
    }
  }

  @Test
  void call_ofAnOperationThatThrows_failsNamingItsComponentAndOperation() {
    try (Toa app = boot()) {
      assertThatThrownBy(
              () ->
                  app.call(
                      "test.sinks.absorb", Request.of(A, Map.of("failures", 1, "refuse", false))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.SYSTEM))
          .hasMessage("test.sinks.absorb threw java.lang.IllegalStateException: failure 1 of 1");
    }
  }

  @Test
  void receiver_refusing_isNeitherRetriedNorParked() {
    try (Toa app = boot()) {
      app.call("test.sources.emit", emit(0, true));

      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(counted(app, "refused")).isEqualTo(1);
      assertThat(counted(app, "retried")).isZero();
      assertThat(app.admin().parked()).isEmpty();
      assertThat(sink(app)).containsEntry("VERSION", 0L);
    }
  }

  /** The sinks' receiver class reads the payload as a map and runs {@code body} as its request. */
  private Toa bootWithReceiverRequest(String body) {
    Path context = Contexts.sourceAndSink(directory);
    Contexts.write(
        context,
        "components/test.sinks/receivers/TestSourcesCreated.java",
        """
        package test.sinks.receivers;
        import io.toa4j.api.*;
        import java.util.Map;
        public class TestSourcesCreated implements Receiver<Map<String, Object>> {
          public Request request(Map<String, Object> payload) {
            %s
          }
        }
        """
            .formatted(body));
    return engines().builder(context, Options.defaults()).build();
  }

  @Test
  void request_breakingTheTargetSchema_isParkedAtOnceWithTheSchemaError() {
    try (Toa app =
        bootWithReceiverRequest(
            "return Request.of(Query.id((String) payload.get(\"id\")), Map.of(\"failures\", \"many\", \"refuse\", false));")) {
      app.call("test.sources.emit", emit(0, false));

      await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
      assertThat(app.admin().parked().get(0).code()).isEqualTo("CONTRACT");
      assertThat(app.admin().parked().get(0).attempts()).isEqualTo(1);
      assertThat(app.admin().parked().get(0).reason()).contains("/failures");
    }
  }

  /**
   * The sinks' absorb throws what the JVM throws where its code was compiled against a Ledger that
   * had post(long).
   */
  private Toa bootWithAbsorbUnlinked() {
    Path context = Contexts.sourceAndSink(directory);
    Contexts.write(
        context,
        "components/test.sinks/operations/Absorb.java",
        """
        package test.sinks.operations;
        import test.sinks.Sink;
        public class Absorb implements io.toa4j.api.Transition<Absorb.Input, Sink> {
          public record Input(long failures, boolean refuse) {}
          public Object transition(Input input, Sink entry) {
            throw new NoSuchMethodError("'void test.sinks.Ledger.post(long)'");
          }
        }
        """);
    return engines().builder(context, Options.defaults()).build();
  }

  /**
   * A sink's record class in {@code file} whose static initializer throws: it fails to initialize
   * where it is first bound to.
   */
  private Toa bootWithUninitializable(String file, String record) {
    Path context = Contexts.sourceAndSink(directory);
    Contexts.edit(
        context,
        "components/test.sinks/" + file,
        "public record " + record + " {}",
        "public record " + record + " { static final long LIMIT = Long.parseLong(\"none\"); }");
    return engines().builder(context, Options.defaults()).build();
  }

  /**
   * Emits a source whose event the sink receives, and answers the message parked for it: as
   * LINKAGE, after one attempt, never retried.
   */
  private Parked parkedAsLinkageAtOnce(Toa app) {
    app.call("test.sources.emit", emit(0, false));
    await().atMost(SETTLE).until(() -> app.admin().parked().size() == 1);
    Parked parked = app.admin().parked().get(0);
    assertThat(parked.code()).isEqualTo("LINKAGE");
    assertThat(parked.attempts()).isEqualTo(1);
    assertThat(counted(app, "retried")).isZero();
    return parked;
  }

  @Test
  void operation_throwingALinkageError_isParkedAfterOneAttempt_asLinkage() {
    try (Toa app = bootWithAbsorbUnlinked()) {
      Parked parked = parkedAsLinkageAtOnce(app);
      assertThat(parked.reason())
          .startsWith("test.sinks.absorb cannot run: java.lang.NoSuchMethodError")
          .contains("Ledger.post(long)", "build it again");
      assertThat(sink(app)).containsEntry("VERSION", 0L);
    }
  }

  @Test
  void operation_whoseInputClassFailsToInitialize_isParkedAfterOneAttempt_asLinkage() {
    try (Toa app =
        bootWithUninitializable("operations/Absorb.java", "Input(long failures, boolean refuse)")) {
      Parked parked = parkedAsLinkageAtOnce(app);
      assertThat(parked.reason())
          .startsWith("test.sinks.absorb cannot run: java.lang.ExceptionInInitializerError");
    }
  }

  @Test
  void receiver_whosePayloadClassFailsToInitialize_isParkedAfterOneAttempt_asLinkage() {
    try (Toa app =
        bootWithUninitializable(
            "receivers/TestSourcesCreated.java",
            "Source(String id, long failures, boolean refuse)")) {
      Parked parked = parkedAsLinkageAtOnce(app);
      assertThat(parked.reason()).startsWith("java.lang.ExceptionInInitializerError");
    }
  }

  @Test
  void call_ofAnOperationThrowingALinkageError_failsLinkage_andWritesNothing() {
    try (Toa app = bootWithAbsorbUnlinked()) {
      assertThatThrownBy(
              () ->
                  app.call(
                      "test.sinks.absorb", Request.of(A, Map.of("failures", 0, "refuse", false))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.LINKAGE))
          .hasMessageContaining("cannot run: java.lang.NoSuchMethodError");
      assertThat(sink(app)).containsEntry("VERSION", 0L);
    }
  }

  @Test
  void receiverClass_throwingALinkageError_isParkedAfterOneAttempt_namingTheReceiver() {
    try (Toa app =
        bootWithReceiverRequest("throw new NoClassDefFoundError(\"test/sinks/Ledger\");")) {
      Parked parked = parkedAsLinkageAtOnce(app);
      assertThat(parked.reason())
          .startsWith(
              "the receiver of test.sources.created in test.sinks (TestSourcesCreated) cannot run:")
          .contains("java.lang.NoClassDefFoundError: test/sinks/Ledger");
    }
  }

  @Test
  void noConsumer_meansNoOutboxEntry_andNothingToSettle() {
    try (Toa app = boot()) {
      Reply reply =
          app.call("test.sinks.absorb", Request.of(A, Map.of("failures", 0, "refuse", false)));

      assertThat(reply).isInstanceOf(Reply.Output.class);
      assertThat(app.admin().settle(Duration.ZERO)).isEmpty();
    }
  }
}
