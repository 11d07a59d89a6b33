package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest is YAML 1.2 (core schema): what YAML 1.1 read as booleans and octals, it does not; an
 * escape that writes no character (a lone surrogate) is refused.
 */
class Yaml12Test {
  @TempDir Path dir;

  private static String notes(String blank, String once) {
    return """
        entity:
          properties:
            label: { type: string }
            mode: { type: integer }
            flag: { type: [boolean, "null"] }
          blank: %s
        operations:
          write:
            once: %s
        """
        .formatted(blank, once);
  }

  @Test
  void noIsAString_andALeadingZeroIsDecimal() {
    ComponentManifest notes =
        component(dir, "notes", notes("{ label: no, mode: 0777, flag: ~ }", "true"));

    assertThat(notes.entity().orElseThrow().blank().toString())
        .isEqualTo("{\"label\":\"no\",\"mode\":777,\"flag\":null}");
  }

  @Test
  void octalIsWrittenWith0o_andTrueInCapitalsIsABoolean() {
    ComponentManifest notes =
        component(dir, "notes", notes("{ label: yes, mode: 0o777, flag: TRUE }", "True"));

    assertThat(notes.entity().orElseThrow().blank().toString())
        .isEqualTo("{\"label\":\"yes\",\"mode\":511,\"flag\":true}");
    assertThat(notes.operations().get("write").once()).isPresent();
  }

  @Test
  void blankWithALoneSurrogateEscape_isRefusedWhereItIs() {
    ManifestException e =
        Fixtures.refused(
            () -> component(dir, "notes", notes("{ label: \"x\\udc00y\", mode: 1 }", "true")),
            "manifest.toa.yaml",
            "entity.blank.label");

    assertThat(e)
        .hasMessageContainingAll(
            "a text holds \\udc00 as its character 2, a lone surrogate",
            "(line 6)",
            "escape both halves of its UTF-16 pair");
  }

  @Test
  void blankWithASurrogatePairEscaped_readsAsItsCharacter() {
    ComponentManifest notes =
        component(dir, "notes", notes("{ label: \"\\ud83d\\ude00\" }", "true"));

    assertThat(notes.entity().orElseThrow().blank().path("label").asString())
        .isEqualTo("\ud83d\ude00");
  }

  @Test
  void yesIsNotTrue() {
    ManifestException e =
        Fixtures.refused(
            () -> component(dir, "notes", notes("{ label: a, mode: 1 }", "yes")),
            "manifest.toa.yaml",
            "operations.write.once");

    assertThat(e).hasMessageContaining("the string 'yes'");
  }
}
