package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static io.toa4j.manifest.Fixtures.fits;
import static io.toa4j.manifest.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** OpenAPI's {@code nullable} translated at load, and {@code default} values given to input. */
class NullableAndDefaultsTest {

  @TempDir Path dir;

  private Schema input(String schema) {
    String manifest = "operations:\n  look:\n    type: computation\n    input:\n" + schema;
    return component(dir, "billing.wallets", manifest)
        .operations()
        .get("look")
        .input()
        .orElseThrow();
  }

  @Test
  void nullableWithAType_addsNullToTheType() {
    Schema schema = input("      type: string\n      nullable: true\n");

    assertThat(schema.source()).isEqualTo(json("{\"type\":[\"string\",\"null\"]}"));
    assertThat(fits(schema, "null")).isTrue();
    assertThat(fits(schema, "\"a\"")).isTrue();
    assertThat(fits(schema, "1")).isFalse();
  }

  @Test
  void nullableWithoutAType_wrapsTheSchemaInAnyOf() {
    Schema schema = input("      enum: [red, green]\n      nullable: true\n      default: red\n");

    assertThat(schema.source())
        .isEqualTo(
            json(
                "{\"anyOf\":[{\"enum\":[\"red\",\"green\"]},{\"type\":\"null\"}],\"default\":\"red\"}"));
    assertThat(fits(schema, "null")).isTrue();
    assertThat(fits(schema, "\"green\"")).isTrue();
    assertThat(fits(schema, "\"blue\"")).isFalse();
  }

  @Test
  void nullableFalse_isDroppedAndNullStaysRefused() {
    Schema schema = input("      type: integer\n      nullable: false\n");

    assertThat(schema.source()).isEqualTo(json("{\"type\":\"integer\"}"));
    assertThat(fits(schema, "null")).isFalse();
  }

  @Test
  void nullableDeepInside_isTranslatedWhereItIs() {
    Schema schema =
        input(
            "      type: object\n      properties:\n"
                + "        note: { type: string, nullable: true, default: null }\n");

    assertThat(schema.source().at("/properties/note"))
        .isEqualTo(json("{\"type\":[\"string\",\"null\"],\"default\":null}"));
    assertThat(fits(schema, "{\"note\":null}")).isTrue();
    assertThat(fits(schema, "{\"note\":3}")).isFalse();
  }

  @Test
  void defaults_fillMissingPropertiesAtEveryDepthAndKeepWhatIsGiven() {
    Schema schema =
        input(
            "      type: object\n      properties:\n"
                + "        limit: { type: integer, default: 10 }\n"
                + "        sort: { type: string, default: asc }\n"
                + "        page:\n          type: object\n          properties:\n"
                + "            size: { type: integer, default: 20 }\n"
                + "            tags: { type: array, default: [new] }\n");

    JsonNode given = json("{\"sort\":\"desc\",\"page\":{}}");
    JsonNode filled = schema.withDefaults(given);

    assertThat(filled)
        .isEqualTo(
            json("{\"sort\":\"desc\",\"page\":{\"size\":20,\"tags\":[\"new\"]},\"limit\":10}"));
    assertThat(given).isEqualTo(json("{\"sort\":\"desc\",\"page\":{}}"));
  }

  @Test
  void defaults_doNotCreateAMissingNestedObject() {
    Schema schema =
        input(
            "      type: object\n      properties:\n"
                + "        page: { type: object, properties: { size: { type: integer, default: 20 } } }\n");

    JsonNode given = json("{}");

    assertThat(schema.withDefaults(given)).isSameAs(given);
  }
}
