package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static io.toa4j.manifest.Fixtures.fits;
import static io.toa4j.manifest.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A component's {@code configuration} in Toa's two forms, and what is refused in it; and its {@code
 * state}.
 */
class ConfigurationManifestTest {
  @TempDir Path dir;

  @Test
  void theMappingItself_isTheSchema_concise_withItsLiteralsAsDefaults() {
    ConfigurationDeclaration configuration =
        component(
                dir,
                "auth.basic",
                "configuration:\n  rounds: 10\n  pepper: ''\n  principal*: string\n")
            .configuration()
            .orElseThrow();

    Schema schema = configuration.schema();
    assertThat(schema.withDefaults(json("{\"principal\":\"p\"}")))
        .isEqualTo(json("{\"principal\":\"p\",\"rounds\":10,\"pepper\":\"\"}"));
    assertThat(fits(schema, "{\"principal\":\"p\",\"rounds\":3}")).isTrue();
    assertThat(fits(schema, "{\"rounds\":3}")).as("principal is required").isFalse();
    assertThat(configuration.defaults()).isEqualTo(json("{}"));
    assertThat(configuration.location().yamlPath()).isEqualTo("configuration");
  }

  @Test
  void aSchemaKey_makesTheSchemaAndDefaultsForm_andJsonSchemaIsReadToo() {
    ConfigurationDeclaration configuration =
        component(
                dir,
                "auth.federation",
                """
        configuration:
          schema:
            type: object
            properties:
              trust: { type: array, items: { type: string } }
          defaults:
            trust: [a]
        """)
            .configuration()
            .orElseThrow();

    assertThat(configuration.defaults()).isEqualTo(json("{\"trust\":[\"a\"]}"));
    assertThat(fits(configuration.schema(), "{\"trust\":[\"b\"]}")).isTrue();
    assertThat(fits(configuration.schema(), "{\"trust\":[1]}")).isFalse();
  }

  @Test
  void aConfigurationThatIsNotAnObject_orDefaultsThatAreNotAMapping_areRefusedWhereWritten() {
    assertThatThrownBy(() -> component(dir, "a.one", "configuration:\n  schema: string\n"))
        .isInstanceOf(ManifestException.class)
        .hasMessageContainingAll("at configuration.schema", "not an object's");
    assertThatThrownBy(
            () ->
                component(
                    dir, "a.two", "configuration:\n  schema: { limit: number }\n  defaults: [1]\n"))
        .isInstanceOf(ManifestException.class)
        .hasMessageContainingAll("at configuration.defaults", "defaults: { limit: 100 }");
    assertThatThrownBy(
            () ->
                component(
                    dir, "a.three", "configuration:\n  schema: { limit: number }\n  other: 1\n"))
        .isInstanceOf(ManifestException.class)
        .hasMessageContainingAll("at configuration", "other");
    assertThatThrownBy(() -> component(dir, "a.four", "configuration:\n  limit: .balance\n"))
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("a configuration refers to no entity");
  }

  @Test
  void state_isReadAsToaWritesIt_andAbsentIsNone() {
    assertThat(component(dir, "a.kept", "state: ~\n").state()).isTrue();
    assertThat(component(dir, "a.plain", "name: plain\n").state()).isFalse();
  }
}
