package io.toa4j.bus.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.spi.Bus;
import io.toa4j.spi.OwnerOnly;
import io.toa4j.spi.Verdict;
import io.toa4j.tck.time.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bus's folder and files, the ones SQLite makes itself included, are their owner's alone. */
class FileModesTest {
  @TempDir Path dir;
  private final TestClock clock = new TestClock(Fixtures.START);

  @Test
  void newBus_publishingAndConsuming_folderIs0700_andBusFilesAndLockAre0600() throws Exception {
    Path state = dir.resolve("app/.toa");
    try (Bus bus = Fixtures.open(state, clock)) {
      bus.declare("q", Set.of("a.b"));
      bus.publish(Fixtures.message("m1", "a.b"));
      bus.consume("q", delivery -> new Verdict.Done());

      assertThat(Files.getPosixFilePermissions(state)).isEqualTo(OwnerOnly.FOLDER);
      for (String file :
          new String[] {
            EmbeddedBus.FILE,
            EmbeddedBus.FILE + "-wal",
            EmbeddedBus.FILE + "-shm",
            EmbeddedBus.CONSUMER_LOCK
          }) {
        Path path = state.resolve(file);
        assertThat(path).as(file + " while the bus is open").exists();
        assertThat(Files.getPosixFilePermissions(path)).as(file).isEqualTo(OwnerOnly.FILE);
      }
    }
  }

  @Test
  void existingWiderBusFile_isOpened_andLeftAsItIs() throws Exception {
    Path db =
        Files.createFile(
            dir.resolve(EmbeddedBus.FILE),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));

    try (Bus bus = Fixtures.open(dir, clock)) {
      bus.declare("q", Set.of("a.b"));
      bus.publish(Fixtures.message("m1", "a.b"));
    }
    assertThat(Files.getPosixFilePermissions(db))
        .isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
  }
}
