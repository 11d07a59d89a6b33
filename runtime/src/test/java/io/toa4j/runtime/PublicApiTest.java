package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Failure;
import io.toa4j.manifest.Manifests;
import io.toa4j.spi.Bus;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/api.md lists every public type of the library modules it names, and nothing else: a type
 * made public, or one that stopped being public, fails here until the list says so.
 */
class PublicApiTest {
  private static final Path LIST = Path.of("..", "docs", "api.md");
  private static final Pattern SECTION = Pattern.compile("^## `([a-z-]+)`");
  private static final Pattern ROW = Pattern.compile("^\\| `([A-Z][A-Za-z]*)` \\|");

  /** Each module the list names, by a class of its package. */
  private static final Map<String, Class<?>> MODULES =
      Map.of(
          "api",
          Failure.class,
          "spi",
          Bus.class,
          "manifest",
          Manifests.class,
          "runtime",
          Toa.class);

  @Test
  void theListedTypes_areThePublicOnes_moduleByModule() throws Exception {
    Map<String, Set<String>> listed = listed();
    assertThat(listed.keySet())
        .as("the modules docs/api.md lists")
        .containsExactlyInAnyOrderElementsOf(MODULES.keySet());
    for (Map.Entry<String, Class<?>> module : MODULES.entrySet()) {
      assertThat(publicTypes(module.getValue()))
          .as("the public types of %s, as docs/api.md lists them", module.getKey())
          .containsExactlyElementsOf(listed.get(module.getKey()));
    }
  }

  private static Map<String, Set<String>> listed() throws IOException {
    Map<String, Set<String>> listed = new LinkedHashMap<>();
    Set<String> current = null;
    for (String line : Files.readAllLines(LIST)) {
      Matcher section = SECTION.matcher(line);
      if (section.find()) {
        current = new TreeSet<>();
        listed.put(section.group(1), current);
        continue;
      }
      Matcher row = ROW.matcher(line);
      if (row.find() && current != null) current.add(row.group(1));
    }
    return listed;
  }

  /**
   * The public top-level types of the package {@code member} is in, read where it was loaded from.
   */
  private static Set<String> publicTypes(Class<?> member)
      throws IOException, URISyntaxException, ClassNotFoundException {
    Path where = Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
    String folder = member.getPackageName().replace('.', '/');
    Set<String> types = new TreeSet<>();
    if (Files.isDirectory(where)) {
      collect(where.resolve(folder), member, types);
    } else {
      try (FileSystem jar = FileSystems.newFileSystem(where)) {
        collect(jar.getPath(folder), member, types);
      }
    }
    return types;
  }

  private static void collect(Path folder, Class<?> member, Set<String> types)
      throws IOException, ClassNotFoundException {
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (!name.endsWith(".class") || name.contains("$") || name.equals("package-info.class"))
          continue;
        String simple = name.substring(0, name.length() - ".class".length());
        Class<?> type =
            Class.forName(member.getPackageName() + "." + simple, false, member.getClassLoader());
        if (Modifier.isPublic(type.getModifiers())) types.add(simple);
      }
    }
  }
}
