package io.toa4j.cli;

import io.toa4j.spi.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The right to boot a context in this process for one {@code toa call}: an OS lock on {@code
 * .toa/call.lock}, held from boot until the context is closed, so a second {@code toa call} on the
 * same context waits for the first instead of failing on the embedded bus, which has one consumer.
 * The holder writes its pid into the file so a waiter can name it. The OS drops the lock when the
 * process dies, so a killed call never leaves the context locked.
 *
 * <p>Not thread-safe: one call takes and closes it.
 */
final class CallLock implements AutoCloseable {
  /** How long a call waits for another one booted on the same context: boot, call and settle. */
  static final Duration WAIT = Duration.ofMinutes(2);

  private static final Duration POLL = Duration.ofMillis(50);
  private static final Logger LOG = LoggerFactory.getLogger(CallLock.class);

  private final FileChannel channel;
  private final boolean waited;

  private CallLock(FileChannel channel, boolean waited) {
    this.channel = channel;
    this.waited = waited;
  }

  /** The lock file of a context. */
  static Path path(Path context) {
    return context.resolve(".toa").resolve("call.lock");
  }

  /**
   * Takes the context's lock, waiting at most {@code wait} while another process (or another call
   * in this one) holds it, and telling the notes once that it waits.
   *
   * @throws CliProblem when the lock is still held after the wait
   */
  static CallLock take(Path context, Duration wait, Consumer<String> notes) {
    Path file = path(context);
    OwnerOnly.folder(file.getParent(), LOG::warn);
    FileChannel channel = open(file);
    long deadline = System.nanoTime() + wait.toNanos();
    boolean waited = false;
    try {
      while (true) {
        FileLock lock = tryLock(channel);
        if (lock != null) {
          CallLock taken = new CallLock(channel, waited);
          taken.sign();
          return taken;
        }
        if (!waited) {
          notes.accept(
              "toa: "
                  + holder(file)
                  + " has booted "
                  + context
                  + " for a call; waiting for it to end (at most "
                  + wait.toSeconds()
                  + " s)");
          waited = true;
        }
        if (System.nanoTime() - deadline >= 0) {
          throw new CliProblem(
              "toa: "
                  + holder(file)
                  + " has kept "
                  + context
                  + " booted for a call for over "
                  + wait.toSeconds()
                  + " s; wait for it to end, or serve the context with toa run so that calls share one process",
              Toa.FAILED);
        }
        Thread.sleep(POLL.toMillis()); // a file lock has no wait with a timeout
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close(channel);
      throw new CliProblem(
          "toa: interrupted while waiting for another call on " + context, Toa.FAILED);
    } catch (RuntimeException e) {
      close(channel);
      throw e;
    }
  }

  /** Whether the call had to wait for another one. */
  boolean waited() {
    return waited;
  }

  /** Releases the lock: the next waiting call boots the context. */
  @Override
  public void close() {
    close(channel);
  }

  private static FileChannel open(Path file) {
    try {
      OwnerOnly.check(file, LOG::warn);
      return FileChannel.open(
          file,
          Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
          OwnerOnly.fileAttributes(file));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open " + file + " to call in-process", e);
    }
  }

  private static FileLock tryLock(FileChannel channel) {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null; // another call in this process holds it
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot lock the file of in-process calls", e);
    }
  }

  /** Writes this process's pid into the file, for a waiter to name. */
  private void sign() {
    try {
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII)),
          0);
    } catch (IOException e) {
      LOG.debug("Cannot write the pid into the call lock", e); // only a waiter's message misses it
    }
  }

  /** "another toa call (pid 123)", as far as the file tells. */
  private static String holder(Path file) {
    try {
      String pid = Files.readString(file, StandardCharsets.US_ASCII).trim();
      return pid.matches("[0-9]{1,19}") ? "another toa call (pid " + pid + ")" : "another toa call";
    } catch (IOException e) {
      return "another toa call";
    }
  }

  private static void close(FileChannel channel) {
    try {
      channel.close(); // releases the lock
    } catch (IOException ignored) {
      // the OS releases the lock with the handle anyway
    }
  }
}
