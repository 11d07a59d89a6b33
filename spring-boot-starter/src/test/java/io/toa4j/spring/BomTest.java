package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code toa4j-bom} lists every artifact the build publishes: each module of the root pom but the
 * BOM itself, the examples, the benchmarks and the fault run, which are not published. A module
 * added to the build and not to the BOM fails here, rather than in an application that imports the
 * BOM and finds the new artifact without a version.
 */
class BomTest {
  private static final Set<String> UNPUBLISHED = Set.of("bom", "bench", "faults");
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
  private static final Pattern ARTIFACT = Pattern.compile("<artifactId>(toa4j-[^<]+)</artifactId>");

  @Test
  void theBom_listsEveryPublishedModule() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    Set<String> published = new TreeSet<>();
    for (String module : all(MODULE, Files.readString(root.resolve("pom.xml")))) {
      if (UNPUBLISHED.contains(module) || module.startsWith("examples/")) continue;
      String pom =
          Files.readString(root.resolve(module).resolve("pom.xml"))
              .replaceFirst("(?s)<parent>.*?</parent>", "");
      published.add(all(ARTIFACT, pom).get(0)); // the module's own, the first after its parent
    }
    Set<String> listed =
        new TreeSet<>(all(ARTIFACT, Files.readString(root.resolve("bom/pom.xml"))));
    listed.remove("toa4j-bom");
    assertThat(published).as("the modules the build publishes").hasSizeGreaterThan(10);
    assertThat(listed).as("what toa4j-bom lists").isEqualTo(published);
  }

  /** The first group of each match, in order. */
  private static List<String> all(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    List<String> found = new java.util.ArrayList<>();
    while (m.find()) found.add(m.group(1));
    return found;
  }
}
