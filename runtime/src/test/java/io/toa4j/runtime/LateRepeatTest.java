package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The builder's windows for late repeats. Late repeats themselves, on every pair of engines, are
 * the engine kit's {@code LateRepeatContract}.
 */
class LateRepeatTest {
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;
  final TestClock clock = new TestClock();

  @Test
  void builder_setsTheContextsWindows_forOperationsThatStateNone() {
    try (Toa app =
        Toa.builder()
            .directory(Contexts.ledger(directory, "true"))
            .inboxRetention(Duration.ofMinutes(10))
            .inboxRemember(Duration.ofHours(1))
            .options(Options.defaults().withClock(clock))
            .build()) {
      Request add = Request.of(ACCOUNT, Map.of("amount", 1, "mode", "ok"));
      app.call("test.ledger.add", add, "call-1");
      clock.advance(Duration.ofMinutes(11));
      assertThatThrownBy(() -> app.call("test.ledger.add", add, "call-1"))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ALREADY_ANSWERED));
      clock.advance(Duration.ofMinutes(50));
      app.call("test.ledger.add", add, "call-1");
      assertThat(Shop.output(app.call("test.ledger.observe", Request.id(ACCOUNT))))
          .containsEntry("balance", 2L);
    }
    assertThatThrownBy(() -> Toa.builder().inboxRemember(Duration.ofMinutes(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an inbox remember is 600 seconds or more; got PT5M");
  }
}
