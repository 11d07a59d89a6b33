package io.toa4j.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A fresh copy of examples/shop in a folder of a test's own, to change and boot. */
final class Shop {
  static final Path EXAMPLE =
      Path.of(System.getProperty("toa.examples", "../examples")).resolve("shop");

  private Shop() {}

  static Path copyTo(Path target) {
    return copy(EXAMPLE, target);
  }

  /** A fresh copy of a context folder, without its state. */
  static Path copy(Path context, Path target) {
    try (Stream<Path> files = Files.walk(context)) {
      for (Path source : (Iterable<Path>) files.sorted(Comparator.naturalOrder())::iterator) {
        Path relative = context.relativize(source);
        if (relative.toString().startsWith(".toa")) continue;
        Path copy = target.resolve(relative.toString());
        if (Files.isDirectory(source)) Files.createDirectories(copy);
        else Files.copy(source, copy);
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
