package io.toa4j.storage.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage's background checkpoints go on past one that throws an {@code Error}: thrown out of
 * the scheduled task, it would end every later round. The Error comes from around the real
 * checkpoint of a real SQLite file ({@link SqliteStorage.Checkpoint}), which runs in every later
 * round.
 */
class CheckpointErrorTest {
  @TempDir Path directory;

  @Test
  void aCheckpointThatThrowsAnError_isFollowedByTheNextRound_whichCheckpointsTheFile() {
    AtomicInteger rounds = new AtomicInteger();
    AtomicInteger checkpointed = new AtomicInteger();
    SqliteStorage storage =
        new SqliteStorage(
            directory,
            store -> {
              if (rounds.incrementAndGet() == 1)
                throw new AssertionError("the first checkpoint fails with an Error");
              store.checkpoint();
              checkpointed.incrementAndGet();
            });
    try (storage) {
      Store store = storage.store("test.wallets");
      await().atMost(Duration.ofSeconds(30)).until(() -> checkpointed.get() >= 3);
      int done = checkpointed.get(); // read first: a round may end between the two reads
      assertThat(rounds.get()).as("the round that threw, then those after it").isGreaterThan(done);
      assertThat(store.unpublishedCount()).as("the store works on").isZero();
    }
  }
}
