package io.toa4j.storage.sqlite;

import io.toa4j.spi.OwnerOnly;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A folder of SQLite files, one per component, and the thread that checkpoints them. The folder is
 * made 0700 and every file in it 0600 ({@link OwnerOnly}); what exists with a wider mode is
 * reported, not changed. Thread-safe.
 */
final class SqliteStorage implements Storage {
  private static final Logger LOG = LoggerFactory.getLogger(SqliteStorage.class);

  /** How often each file's WAL is copied into the file, in the background. */
  private static final long CHECKPOINT_MILLIS = 100;

  private final Path directory;
  private final ConcurrentMap<String, SqliteStore> stores = new ConcurrentHashMap<>();
  private final ScheduledExecutorService checkpoints;
  private final Checkpoint checkpoint;
  private volatile boolean closed;

  /** How a round checkpoints one store: {@link SqliteStore#checkpoint()}, or a test's around it. */
  @FunctionalInterface
  interface Checkpoint {
    void run(SqliteStore store) throws SQLException;
  }

  SqliteStorage(Path directory) {
    this(directory, SqliteStore::checkpoint);
  }

  SqliteStorage(Path directory, Checkpoint checkpoint) {
    this.checkpoint = checkpoint;
    if (directory.getParent() != null)
      OwnerOnly.folder(directory.getParent(), LOG::warn); // .toa/ itself
    OwnerOnly.folder(directory, LOG::warn);
    this.directory = directory;
    this.checkpoints =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "toa-sqlite-checkpoint");
              t.setDaemon(true);
              return t;
            });
    checkpoints.scheduleWithFixedDelay(
        this::checkpoint, CHECKPOINT_MILLIS, CHECKPOINT_MILLIS, TimeUnit.MILLISECONDS);
  }

  private void checkpoint() {
    for (Map.Entry<String, SqliteStore> store : stores.entrySet()) {
      try {
        checkpoint.run(store.getValue());
      } catch (SQLException | RuntimeException e) {
        // the next round tries again, and a commit checkpoints by itself past the backstop
        if (!closed) LOG.debug("Checkpointing {} failed: {}", store.getKey(), e.getMessage());
      } catch (Error e) { // thrown out of the task, it would end every later round for good
        if (!closed)
          LOG.warn("Checkpointing {} failed; the next round tries again", store.getKey(), e);
      }
    }
  }

  @Override
  public Store store(String component) {
    if (closed)
      throw new IllegalStateException("The SQLite storage at " + directory + " is closed");
    return stores.computeIfAbsent(component, c -> new SqliteStore(directory.resolve(c + ".db")));
  }

  @Override
  public boolean transactional() {
    return true;
  }

  @Override
  public String describe() {
    return "sqlite at " + directory;
  }

  @Override
  public void close() {
    closed = true;
    checkpoints.shutdown();
    try {
      checkpoints.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Throwable failure = null;
    for (SqliteStore store : stores.values()) {
      try {
        store.close();
      } catch (RuntimeException | Error e) { // the others are closed all the same
        if (failure == null) failure = e;
      }
    }
    stores.clear();
    if (failure instanceof Error e) throw e;
    if (failure != null) throw (RuntimeException) failure;
  }
}
