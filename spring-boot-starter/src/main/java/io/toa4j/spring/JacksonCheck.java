package io.toa4j.spring;

import org.springframework.util.ClassUtils;

/**
 * Refuses to start on a Jackson older than the one toa4j reads YAML with, saying how to get the
 * right one. toa4j reads YAML 1.2 with Jackson's core schema ({@code YAMLSchema}, Jackson 3.3);
 * Spring Boot 4.0 manages Jackson 3.1, so an application with Boot's parent and the starter alone
 * has the older one, and without this check fails deep in the context's build with {@code
 * NoClassDefFoundError: tools/jackson/dataformat/yaml/YAMLSchema}. The way out is toa4j's BOM
 * (docs/spring-boot.md, "Versions").
 */
final class JacksonCheck {
  /** The class toa4j needs that a Jackson older than 3.3 lacks. */
  static final String NEEDED = "tools.jackson.dataformat.yaml.YAMLSchema";

  private JacksonCheck() {}

  /**
   * Throws when the class loader's Jackson is too old for toa4j.
   *
   * @throws IllegalStateException naming the Jackson found and the way out
   */
  static void require(ClassLoader loader) {
    if (ClassUtils.isPresent(NEEDED, loader)) return;
    throw new IllegalStateException(
        "toa4j reads YAML with Jackson 3.3 or newer, and this application has jackson-dataformat-yaml "
            + version(loader)
            + " (Spring Boot 4.0 manages Jackson 3.1): import io.toa4j:toa4j-bom in the application's"
            + " dependencyManagement (type pom, scope import; before Spring Boot's BOM where the application imports that),"
            + " which brings Jackson 3.3 for all of Jackson (docs/spring-boot.md, \"Versions\")");
  }

  private static String version(ClassLoader loader) {
    try {
      return String.valueOf(
          Class.forName("tools.jackson.dataformat.yaml.PackageVersion", false, loader)
              .getField("VERSION")
              .get(null));
    } catch (ReflectiveOperationException | LinkageError e) {
      return "older than 3.3";
    }
  }
}
