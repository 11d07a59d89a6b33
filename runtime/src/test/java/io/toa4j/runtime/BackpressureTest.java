package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Backpressure on the embedded engines: SQLite files for the storage and the bus. */
class BackpressureTest extends BackpressureContract {
  static final String NOTES = "test.notes..tasks";

  @Override
  Toa app(Path context, InterceptedBus bus, Options options) {
    return Toa.builder()
        .directory(context)
        .engine(bus)
        .bus(bus.name(), Map.of())
        .options(options)
        .build();
  }

  @Override
  String real() {
    return "embedded";
  }

  @Test
  void aComponentThatOnlySendsTasks_waitsWhileItsTasksLag_andGoesOnOnceTheyAreHandled()
      throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    // test.courier announces nothing anyone receives: its line is the task queue it sends to
    Options options = Options.defaults().withClock(clock).withBacklog(3, PATIENCE.multipliedBy(2));
    try (Toa app = app(Contexts.courier(directory), gated(release, NOTES), options)) {
      for (int n = 1; n <= 4; n++) app.call("test.courier.dispatch", dispatch(n));
      await()
          .atMost(PATIENCE)
          .until(() -> depth(app, NOTES) == 4); // held by the notes or waiting for them
      clock.advance(
          Duration.ofMillis(Admission.SAMPLE_MILLIS)); // the queue's length is asked again
      long before =
          waits(app); // the fourth may have waited a moment: a task published and not yet marked
      // counts twice

      CompletableFuture<Reply> fifth =
          CompletableFuture.supplyAsync(() -> app.call("test.courier.dispatch", dispatch(5)));
      await().atMost(PATIENCE).until(() -> waits(app) == before + 1);
      await().during(QUIET).atMost(PATIENCE).until(() -> !fifth.isDone());

      release.countDown();
      assertThat(fifth.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
          .isInstanceOf(Reply.Output.class);
      await().atMost(PATIENCE).until(() -> notes(app) == 5);
    }
  }

  private static Request dispatch(int n) {
    return Request.of(hex(n), Map.of("mode", "ok", "note", "note " + n));
  }

  /** How many tasks the notes ran. */
  private static long notes(Toa app) {
    return app.call("test.notes.observe", Request.id("fedcba9876543210fedcba9876543210"))
                instanceof Reply.Output output
            && output.value().orElse(Map.of()) instanceof Map<?, ?> notes
            && notes.get("received") instanceof Number received
        ? received.longValue()
        : 0;
  }
}
