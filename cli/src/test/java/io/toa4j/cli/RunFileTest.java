package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunFileTest {
  @TempDir Path context;

  @Test
  void write_thenRead_givesTheSameRunFile() {
    RunFile run = new RunFile(ProcessHandle.current().pid(), 43210, "secret");
    Path file = RunFile.path(context);

    run.write(file);

    assertThat(file).isEqualTo(context.resolve(".toa/run.json"));
    assertThat(RunFile.read(file)).contains(run);
  }

  @Test
  void write_isReadableByTheOwnerOnly() throws IOException {
    // toa4j's machines are POSIX; the test says so rather than skipping elsewhere
    assertThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
    Path file = RunFile.path(context);

    new RunFile(1, 2, "secret").write(file);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    try (var left = Files.list(file.getParent())) {
      assertThat(left).containsExactly(file); // no staging file left behind
    }
  }

  @Test
  void read_missingOrUnreadable_isEmpty() throws IOException {
    Path file = RunFile.path(context);
    assertThat(RunFile.read(file)).isEmpty();

    Files.createDirectories(file.getParent());
    Files.writeString(file, "{ \"pid\": ");
    assertThat(RunFile.read(file)).isEmpty();

    Files.writeString(file, "{ \"pid\": 1, \"port\": 2 }");
    assertThat(RunFile.read(file)).isEmpty();
  }

  @Test
  void alive_thisProcess_isTrue_andAFinishedOne_isFalse() throws Exception {
    Process finished = new ProcessBuilder("true").start();
    finished.waitFor();

    assertThat(new RunFile(ProcessHandle.current().pid(), 1, "t").alive()).isTrue();
    assertThat(new RunFile(finished.pid(), 1, "t").alive()).isFalse();
  }

  @Test
  void deleteFrom_fileStillOurs_removesIt() {
    Path file = RunFile.path(context);
    RunFile run = new RunFile(7, 8, "ours");
    run.write(file);

    run.deleteFrom(file);

    assertThat(file).doesNotExist();
  }

  @Test
  void deleteFrom_fileReplacedByAnotherRun_keepsIt() {
    Path file = RunFile.path(context);
    RunFile ours = new RunFile(7, 8, "ours");
    ours.write(file);
    RunFile theirs = new RunFile(9, 10, "theirs");
    theirs.write(file);

    ours.deleteFrom(file);

    assertThat(RunFile.read(file)).contains(theirs);
  }

  @Test
  void toString_neverShowsTheToken() {
    assertThat(new RunFile(7, 8, "secret-token")).hasToString("RunFile[pid=7, port=8]");
  }
}
