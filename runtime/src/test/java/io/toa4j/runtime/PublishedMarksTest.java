package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.spi.InboxEntry;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Outcome;
import io.toa4j.spi.Reading;
import io.toa4j.spi.RecentEntry;
import io.toa4j.spi.Selection;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import io.toa4j.spi.Write;
import io.toa4j.storage.sqlite.SqliteStorageProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The publisher writes the marks of published outbox entries together: while one mark is being
 * written, the entries published meanwhile wait and are marked in one statement after it — on the
 * real SQLite storage, one of its stores held at the mark by the test.
 */
class PublishedMarksTest {
  static final Duration SETTLE = Duration.ofSeconds(30);

  @TempDir Path directory;

  /** The SQLite storage, its {@code test.sources} store recording each mark and holding the first until released. */
  static final class HeldMarks implements StorageProvider {
    final List<List<String>> marks = new CopyOnWriteArrayList<>();
    final CountDownLatch first = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public String name() {
      return "held-marks";
    }

    @Override
    public Storage open(StorageSettings settings) {
      Storage sqlite = new SqliteStorageProvider().open(settings);
      return new Storage() {
        @Override
        public Store store(String component) {
          Store store = sqlite.store(component);
          return component.equals("test.sources") ? new Held(store) : store;
        }

        @Override
        public boolean transactional() {
          return sqlite.transactional();
        }

        @Override
        public String describe() {
          return sqlite.describe();
        }

        @Override
        public void close() {
          sqlite.close();
        }
      };
    }

    final class Held implements Store {
      private final Store store;

      Held(Store store) {
        this.store = store;
      }

      @Override
      public void published(Collection<String> ids, long at) {
        marks.add(List.copyOf(ids));
        first.countDown();
        try {
          if (!release.await(SETTLE.toSeconds(), TimeUnit.SECONDS)) throw new IllegalStateException("the test never released the mark");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        store.published(ids, at);
      }

      @Override
      public Optional<StoredRecord> read(String id) {
        return store.read(id);
      }

      @Override
      public List<StoredRecord> find(Selection selection) {
        return store.find(selection);
      }

      @Override
      public boolean remove(String id, long version) {
        return store.remove(id, version);
      }

      @Override
      public Outcome commit(Write write) {
        return store.commit(write);
      }

      @Override
      public Optional<InboxEntry> recorded(String identity, long now) {
        return store.recorded(identity, now);
      }

      @Override
      public Reading read(String id, String identity, long now) {
        return store.read(id, identity, now);
      }

      @Override
      public int purgeInbox(long now, int limit) {
        return store.purgeInbox(now, limit);
      }

      @Override
      public List<OutboxEntry> unpublished(int limit) {
        return store.unpublished(limit);
      }

      @Override
      public long unpublishedCount() {
        return store.unpublishedCount();
      }

      @Override
      public List<OutboxEntry> claim(int limit, long now, long until) {
        return store.claim(limit, now, until);
      }

      @Override
      public List<RecentEntry> recent(int limit) {
        return store.recent(limit);
      }

      @Override
      public int republish(Collection<String> ids, long now) {
        return store.republish(ids, now);
      }

      @Override
      public int purgePublished(long before, int limit) {
        return store.purgePublished(before, limit);
      }
    }
  }

  private static double delivered(Toa app) {
    return app.metrics().find("toa.messages").tag("outcome", "delivered").counters().stream().mapToDouble(c -> c.count()).sum();
  }

  private static Request emit(int n) {
    return Request.of(String.format("%032x", n), Map.of("failures", 0, "refuse", false));
  }

  @Test
  void entriesPublishedWhileAMarkIsWritten_areMarkedTogetherAfterIt() throws Exception {
    HeldMarks held = new HeldMarks();
    try (Toa app = Toa.builder().directory(Fixtures.sourceAndSink(directory)).engine(held).storage("held-marks", Map.of()).build()) {
      app.call("test.sources.emit", emit(1));
      assertThat(held.first.await(SETTLE.toSeconds(), TimeUnit.SECONDS)).as("the first entry's mark is being written").isTrue();

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
