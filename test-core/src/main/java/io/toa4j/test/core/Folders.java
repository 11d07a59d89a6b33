package io.toa4j.test.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary folders the contexts under test keep their state in: made, copied, removed. */
final class Folders {
  private Folders() {}

  /** A new temporary folder, its owner's alone. */
  static Path temporary() {
    try {
      return Files.createTempDirectory("toa-test-");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot make a temporary folder for a context under test", e);
    }
  }

  /** The folder {@code folder}, made if it is not there. */
  static Path folder(Path folder) {
    try {
      return Files.createDirectories(folder);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot make the folder " + folder + " for a context under test", e);
    }
  }

  /**
   * Copies everything under {@code from} into the folder {@code to}, each file and folder with its
   * permissions.
   */
  static void copy(Path from, Path to) {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        // with its attributes: what was its owner's alone stays so (the runtime warns otherwise)
        if (!p.equals(from))
          Files.copy(
              p, to.resolve(from.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot copy the state of a context under test from " + from + " to " + to, e);
    }
  }

  /** Removes a folder and everything in it. */
  static void delete(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator)
        Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot remove the folder of a context under test, " + folder, e);
    }
  }
}
