package io.toa4j.bus.embedded;

import io.toa4j.spi.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The right to consume from one bus file, held by one open bus at a time across processes.
 *
 * <p>Claims live in the consuming bus's memory (see {@link Deliveries}), so a second consumer on
 * the same file could take a message another is handling. An OS file lock on a file beside the
 * database (never on the database itself, whose locks belong to SQLite) keeps consumers to one; the
 * OS drops it when the process dies, so a crash never leaves the file without a consumer.
 *
 * <p>Thread-safe.
 */
final class ConsumerLock {
  private static final Logger LOG = LoggerFactory.getLogger(ConsumerLock.class);
  private final Path file;
  private FileChannel channel;
  private FileLock lock;

  ConsumerLock(Path file) {
    this.file = file;
  }

  /** Takes the lock, or keeps it if this bus holds it already; fails when another bus holds it. */
  synchronized void acquire() {
    if (lock != null) return;
    FileChannel opened = null;
    try {
      OwnerOnly.check(file, LOG::warn);
      opened =
          FileChannel.open(
              file,
              Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
              OwnerOnly.fileAttributes(file));
      FileLock taken = opened.tryLock();
      if (taken == null) throw held();
      channel = opened;
      lock = taken;
    } catch (OverlappingFileLockException e) {
      throw held();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot lock " + file + " to consume from the embedded bus", e);
    } finally {
      if (lock == null && opened != null) closeQuietly(opened);
    }
  }

  synchronized void release() {
    if (channel == null) return;
    closeQuietly(channel); // releases the lock
    channel = null;
    lock = null;
  }

  private IllegalStateException held() {
    return new IllegalStateException(
        "Another bus already consumes from the embedded bus in "
            + file.getParent()
            + " (it holds "
            + file.getFileName()
            + "): the embedded bus has one consuming process. Stop the other process (or close the"
            + " other bus), or use a distributed bus to consume from several processes.");
  }

  private static void closeQuietly(FileChannel c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // Closing: the OS releases the lock with the file handle anyway.
    }
  }
}
