package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the toa command ships, as the build packaged it ({@code target/toa4j-cli.jar} and {@code
 * target/lib/}): toa4j's jars each name their module (Automatic-Module-Name, not a name derived
 * from the file's), and no test library is among them.
 */
class LibrariesIT {
  private static final Path TARGET = Path.of("target");

  @Test
  void toa4jsJars_nameTheirModules() throws IOException {
    List<Path> jars;
    try (Stream<Path> lib = Files.list(TARGET.resolve("lib"))) {
      jars =
          Stream.concat(
                  Stream.of(TARGET.resolve("toa4j-cli.jar")),
                  lib.filter(j -> j.getFileName().toString().startsWith("toa4j-")))
              .toList();
    }
    assertThat(jars).hasSizeGreaterThan(8);
    for (Path jar : jars) {
      Set<String> names =
          ModuleFinder.of(jar).findAll().stream()
              .map(ModuleReference::descriptor)
              .map(d -> d.name())
              .collect(Collectors.toSet());
      assertThat(names)
          .as("the module %s names", jar.getFileName())
          .singleElement()
          .satisfies(name -> assertThat(name).startsWith("io.toa4j."));
    }
  }

  @Test
  void noTestLibrary_isShipped() throws IOException {
    try (Stream<Path> lib = Files.list(TARGET.resolve("lib"))) {
      assertThat(lib.map(j -> j.getFileName().toString()))
          .noneMatch(
              name ->
                  name.startsWith("junit-")
                      || name.startsWith("assertj-")
                      || name.startsWith("opentest4j-")
                      || name.startsWith("slf4j-simple-"));
    }
  }
}
