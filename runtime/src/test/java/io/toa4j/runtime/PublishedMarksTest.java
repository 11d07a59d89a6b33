package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The publisher writes the marks of published outbox entries together: while one mark is being
 * written, the entries published meanwhile wait and are marked in one statement after it — on the
 * real SQLite storage, one of its stores held at the mark by the test ({@link InterceptedStorage}).
 */
class PublishedMarksTest {
  static final Duration SETTLE = Duration.ofSeconds(30);

  @TempDir Path directory;

  /** Each mark of {@code test.sources} written, and the first held until the test releases it. */
  static final class HeldMarks {
    final List<List<String>> marks = new CopyOnWriteArrayList<>();
    final CountDownLatch first = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final InterceptedStorage storage =
        new InterceptedStorage(
            "held-marks",
            (component, method, args, proceed) -> {
              if (component.equals("test.sources") && method.getName().equals("published")) {
                @SuppressWarnings("unchecked")
                Collection<String> ids = (Collection<String>) args[0];
                marks.add(List.copyOf(ids));
                first.countDown();
                if (!release.await(SETTLE.toSeconds(), TimeUnit.SECONDS))
                  throw new IllegalStateException("the test never released the mark");
              }
              return proceed.call();
            });
  }

  private static double delivered(Toa app) {
    return app.metrics().find("toa.messages").tag("outcome", "delivered").counters().stream()
        .mapToDouble(c -> c.count())
        .sum();
  }

  private static Request emit(int n) {
    return Request.of(String.format("%032x", n), Map.of("failures", 0, "refuse", false));
  }

  @Test
  void entriesPublishedWhileAMarkIsWritten_areMarkedTogetherAfterIt() throws Exception {
    HeldMarks held = new HeldMarks();
    try (Toa app =
        Toa.builder()
            .directory(Contexts.sourceAndSink(directory))
            .engine(held.storage)
            .storage(held.storage.name(), Map.of())
            .build()) {
      app.call("test.sources.emit", emit(1));
      assertThat(held.first.await(SETTLE.toSeconds(), TimeUnit.SECONDS))
          .as("the first entry's mark is being written")
          .isTrue();

      for (int n = 2; n <= 11; n++) app.call("test.sources.emit", emit(n));
      // every event is on the bus (its receiver ran) while the first mark is still held
      await().atMost(SETTLE).until(() -> delivered(app) == 11);
      assertThat(held.marks).hasSize(1);

      held.release.countDown();
      assertThat(app.admin().settle(SETTLE)).isEmpty();
      assertThat(app.admin().backlog()).isZero();
      assertThat(held.marks).hasSize(2);
      assertThat(held.marks.get(0)).hasSize(1);
      assertThat(held.marks.get(1)).hasSize(10);
    }
  }
}
