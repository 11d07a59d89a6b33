package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A fresh copy of examples/shop in a folder of a test's own, to change and boot; and what tests ask
 * of it.
 */
final class Shop {
  /** A wallet's id. */
  static final String WALLET = "8d1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  static final Path EXAMPLE =
      Path.of(System.getProperty("toa.examples", "../examples")).resolve("shop");

  private Shop() {}

  /** A credit's input. */
  static Map<String, Object> credit(long amount, String ref) {
    return Map.of("amount", amount, "type", "goodwill", "ref", ref);
  }

  /** The output of a reply that must be one, as the JSON object it is. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> output(Reply reply) {
    assertThat(reply).isInstanceOf(Reply.Output.class);
    return (Map<String, Object>) ((Reply.Output) reply).value().orElseThrow();
  }

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
