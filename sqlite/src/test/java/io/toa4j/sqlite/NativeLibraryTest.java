package io.toa4j.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver's native library, extracted once into the caller's folder and loaded from there. The
 * driver loads its library once per JVM, so each case runs in a JVM of its own, which reports the
 * file the library was mapped from ({@code /proc/self/maps}).
 */
class NativeLibraryTest {
  @TempDir Path dir;

  @Test
  void prepareIn_extractsOnceOwnerOnly_andTheDriverLoadsThatCopy() throws Exception {
    String first = probe(dir);
    Path library = only(dir.resolve("native"));
    assertThat(first)
        .as("mapped from the extracted copy")
        .isEqualTo(library.toRealPath().toString());
    assertThat(library.getParent().getParent().getFileName()).hasToString("native");
    assertThat(library.getParent().getFileName().toString()).startsWith("sqlite-jdbc-");
    for (Path p : List.of(library.getParent().getParent(), library.getParent())) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
          .as("%s", p)
          .isEqualTo("rwx------");
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(library)))
        .as("read to be mapped, by its owner only")
        .isEqualTo("rw-------");
    try (Stream<Path> files = Files.list(library.getParent())) {
      assertThat(files).as("no part file left").containsExactly(library);
    }

    FileTime written = Files.getLastModifiedTime(library);
    String second = probe(dir);
    assertThat(second).isEqualTo(first);
    assertThat(Files.getLastModifiedTime(library))
        .as("the copy is reused, not written again")
        .isEqualTo(written);
  }

  @Test
  void prepareIn_copyCutShort_isWrittenAgain() throws Exception {
    probe(dir);
    Path library = only(dir.resolve("native"));
    Files.write(library, new byte[] {1, 2, 3});
    assertThat(probe(dir)).isEqualTo(library.toRealPath().toString());
    assertThat(Files.size(library)).isGreaterThan(3);
  }

  @Test
  void prepareIn_libraryChosenByTheApplication_isLeftAlone() throws Exception {
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    probe(dir.resolve("context"), "-D" + NativeLibrary.PATH + "=" + elsewhere);
    assertThat(dir.resolve("context/native")).doesNotExist();
  }

  /** The one file under the folder, at any depth. */
  private static Path only(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      List<Path> regular = files.filter(Files::isRegularFile).toList();
      assertThat(regular).hasSize(1);
      return regular.get(0);
    }
  }

  /** Runs {@link Probe} in a JVM of its own; the file the native library was mapped from. */
  private static String probe(Path folder, String... jvm) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(List.of(jvm));
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            Probe.class.getName(),
            folder.toString()));
    // its standard error apart: what a logging library says there is not the answer
    Path errors = Files.createTempFile("probe", ".err");
    try {
      Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
      String out =
          new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
      assertThat(process.exitValue()).as("%s%n%s", out, Files.readString(errors)).isZero();
      return out;
    } finally {
      Files.delete(errors);
    }
  }

  /**
   * Prepares the library in the folder named, opens a connection, prints where the library came
   * from.
   */
  public static final class Probe {
    public static void main(String[] args) throws Exception {
      NativeLibrary.prepareIn(Path.of(args[0]));
      try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
          Statement s = c.createStatement()) {
        s.execute("SELECT 1");
      }
      for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
        if (line.contains("sqlitejdbc")) {
          System.out.println(line.substring(line.indexOf('/')));
          return;
        }
      }
      System.out.println("no sqlitejdbc mapped");
    }
  }
}
