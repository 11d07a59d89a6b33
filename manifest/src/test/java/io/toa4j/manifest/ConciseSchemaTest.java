package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static io.toa4j.manifest.Fixtures.fits;
import static io.toa4j.manifest.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Toa's concise schemas, translated to JSON Schema at load: the source compiled, and its effect.
 */
class ConciseSchemaTest {
  private static final String ID = "0123456789abcdef0123456789ABCDEF";

  @TempDir Path dir;

  /** A component with a wallet entity and one operation whose input is the given schema. */
  private Schema input(String schema) {
    String manifest =
        """
        entity:
          properties:
            balance: { type: integer, minimum: 0 }
            owner: string
        operations:
          look:
            type: observation
            input: %s
        """
            .formatted(schema);
    return component(dir, "billing.wallets", manifest)
        .operations()
        .get("look")
        .input()
        .orElseThrow();
  }

  @Test
  void conciseMappingWithJsonSchemaValues_readsEachValueAsJsonSchema_asToaDoes() {
    Schema schema =
        input("{ limit: { type: number }, foo: { type: integer, default: 0 }, bar: string }");

    assertThat(schema.source().at("/properties/limit")).isEqualTo(json("{\"type\":\"number\"}"));
    assertThat(schema.source().at("/properties/foo"))
        .isEqualTo(json("{\"type\":\"integer\",\"default\":0}"));
    assertThat(fits(schema, "{\"limit\":1.5,\"foo\":2,\"bar\":\"x\"}")).isTrue();
    assertThat(fits(schema, "{\"limit\":\"many\"}")).isFalse();
    assertThat(fits(schema, "{\"other\":1}"))
        .as("an object of those properties and no others")
        .isFalse();
  }

  @Test
  void boundedString_isAStringOfAtMostThatLength_asToaReadsIt() {
    Schema schema = input("string(3)");

    assertThat(schema.source()).isEqualTo(json("{\"type\":\"string\",\"maxLength\":3}"));
    assertThat(fits(schema, "\"abc\"")).isTrue();
    assertThat(fits(schema, "\"abcd\"")).isFalse();
  }

  @Test
  void literalNumbersAndBooleans_areTheirTypeWithThemAsDefault_asToaReadsThem() {
    Schema schema = input("{ times: 1, ratio: 1.5, booked: false }");

    assertThat(schema.source().get("properties"))
        .isEqualTo(
            json(
                "{\"times\":{\"type\":\"number\",\"default\":1},\"ratio\":{\"type\":\"number\",\"default\":1.5},"
                    + "\"booked\":{\"type\":\"boolean\",\"default\":false}}"));
    assertThat(fits(schema, "{\"times\":3,\"booked\":true}")).isTrue();
    assertThat(fits(schema, "{\"times\":\"3\"}")).isFalse();
    assertThat(input("5").source()).isEqualTo(json("{\"type\":\"number\",\"default\":5}"));
  }

  @Test
  void anyOtherText_isAStringWithItAsDefault_andASlashedText_aPattern_asToaReadsThem() {
    Schema schema = input("{ greeting: hello, pepper: '', code: '/^[A-Z]+$/' }");

    assertThat(schema.source().get("properties"))
        .isEqualTo(
            json(
                "{\"greeting\":{\"type\":\"string\",\"default\":\"hello\"},\"pepper\":{\"type\":\"string\",\"default\":\"\"},"
                    + "\"code\":{\"type\":\"string\",\"pattern\":\"^[A-Z]+$\"}}"));
    assertThat(fits(schema, "{\"greeting\":\"hi\",\"code\":\"AB\"}")).isTrue();
    assertThat(fits(schema, "{\"code\":\"ab\"}")).isFalse();
    assertThat(fits(schema, "{\"greeting\":5}")).isFalse();
  }

  @Test
  void emptyMapping_isAnObjectWithNoProperty_asToaReadsIt() {
    Schema schema = input("{}");

    assertThat(schema.source())
        .isEqualTo(json("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"));
    assertThat(fits(schema, "{}")).isTrue();
    assertThat(fits(schema, "{\"amount\":5}")).as("no property is declared").isFalse();
    assertThat(fits(schema, "5")).isFalse();
  }

  @Test
  void emptyMapping_asAPropertysSchema_isAnObjectWithNoProperty() {
    Schema schema = input("{ meta: {}, owner: string }");

    assertThat(fits(schema, "{\"meta\":{},\"owner\":\"x\"}")).isTrue();
    assertThat(fits(schema, "{\"meta\":{\"a\":1}}")).isFalse();
  }

  @Test
  void typeName_isThatType() {
    Schema schema = input("string");

    assertThat(schema.source()).isEqualTo(json("{\"type\":\"string\"}"));
    assertThat(fits(schema, "\"a\"")).isTrue();
    assertThat(fits(schema, "1")).isFalse();
  }

  @Test
  void idType_isThirtyTwoHexDigits() {
    Schema schema = input("id");

    assertThat(schema.source())
        .isEqualTo(json("{\"type\":\"string\",\"pattern\":\"^[0-9a-fA-F]{32}$\"}"));
    assertThat(fits(schema, "\"" + ID + "\"")).isTrue();
    assertThat(fits(schema, "\"" + ID.substring(1) + "\"")).isFalse();
    assertThat(fits(schema, "\"" + ID.substring(1) + "g\"")).isFalse();
  }

  @Test
  void mapping_isAnObjectOfThosePropertiesAndNoOthers() {
    Schema schema = input("{ limit: number, name: string }");

    assertThat(schema.source())
        .isEqualTo(
            json(
                "{\"type\":\"object\",\"properties\":{\"limit\":{\"type\":\"number\"},"
                    + "\"name\":{\"type\":\"string\"}},\"additionalProperties\":false}"));
    assertThat(fits(schema, "{\"limit\":1.5}")).isTrue();
    assertThat(fits(schema, "{}")).isTrue();
    assertThat(fits(schema, "{\"limit\":\"many\"}")).isFalse();
    assertThat(fits(schema, "{\"limit\":1,\"colour\":\"red\"}")).isFalse();
  }

  @Test
  void mapping_starMarksRequired() {
    Schema schema = input("{ limit*: integer, name: string }");

    assertThat(schema.source().get("required")).isEqualTo(json("[\"limit\"]"));
    assertThat(fits(schema, "{\"limit\":1}")).isTrue();
    assertThat(fits(schema, "{\"name\":\"a\"}")).isFalse();
  }

  @Test
  void mapping_withAMarkedKey_isConcise_evenWithKeysNamedLikeKeywords() {
    Schema schema = input("{ title*: string, type: string, pages: integer }");

    assertThat(schema.source().get("required")).isEqualTo(json("[\"title\"]"));
    assertThat(schema.source().at("/properties/type")).isEqualTo(json("{\"type\":\"string\"}"));
    assertThat(fits(schema, "{\"title\":\"Dune\",\"type\":\"novel\"}")).isTrue();
    assertThat(fits(schema, "{\"type\":\"novel\"}")).isFalse();
  }

  @Test
  void mapping_withoutMarks_namedLikeAnAnnotation_isRefusedAsAcceptingAnything() {
    ManifestException e =
        Fixtures.refused(
            () -> input("{ title: string }"), "manifest.toa.yaml", "operations.look.input.title");

    assertThat(e)
        .hasMessageContainingAll("'title' is a JSON Schema annotation", "would accept any value");
  }

  @Test
  void mapping_withAKeyThatIsNoKeyword_isConcise_itsKeywordNamedKeysPropertiesToo() {
    Schema schema = input("{ title: string, body: string }");

    assertThat(schema.source().at("/properties/title")).isEqualTo(json("{\"type\":\"string\"}"));
    assertThat(schema.source().at("/properties/body")).isEqualTo(json("{\"type\":\"string\"}"));
    assertThat(fits(schema, "{\"title\":\"Dune\",\"body\":\"sand\"}")).isTrue();
    assertThat(fits(schema, "{\"title\":5}")).isFalse();
  }

  @Test
  void mapping_questionMarkMakesTheUnmarkedRequired() {
    Schema schema = input("{ limit: integer, name?: string }");

    assertThat(schema.source().get("required")).isEqualTo(json("[\"limit\"]"));
    assertThat(schema.source().get("properties").has("name")).isTrue();
    assertThat(fits(schema, "{\"name\":\"a\"}")).isFalse();
  }

  @Test
  void oneItemList_isAnArrayOfThatType() {
    Schema schema = input("[number]");

    assertThat(schema.source())
        .isEqualTo(json("{\"type\":\"array\",\"items\":{\"type\":\"number\"}}"));
    assertThat(fits(schema, "[1, 2.5]")).isTrue();
    assertThat(fits(schema, "[1, \"two\"]")).isFalse();
  }

  @Test
  void nestedForms_translateAtEveryLevel() {
    Schema schema = input("{ lines: [{ sku*: string, count: integer }], owner: id }");

    assertThat(schema.source().at("/properties/lines/items"))
        .isEqualTo(
            json(
                "{\"type\":\"object\",\"properties\":{\"sku\":{\"type\":\"string\"},"
                    + "\"count\":{\"type\":\"integer\"}},\"required\":[\"sku\"],"
                    + "\"additionalProperties\":false}"));
    assertThat(fits(schema, "{\"lines\":[{\"sku\":\"a\",\"count\":2}],\"owner\":\"" + ID + "\"}"))
        .isTrue();
    assertThat(fits(schema, "{\"lines\":[{\"count\":2}]}")).isFalse();
  }

  @Test
  void propertyReference_isTheEntitysPropertySchema() {
    Schema schema = input("{ amount*: .balance, to: .owner }");

    assertThat(schema.source().at("/properties/amount"))
        .isEqualTo(json("{\"type\":\"integer\",\"minimum\":0}"));
    assertThat(schema.source().at("/properties/to")).isEqualTo(json("{\"type\":\"string\"}"));
    assertThat(fits(schema, "{\"amount\":5,\"to\":\"bob\"}")).isTrue();
    assertThat(fits(schema, "{\"amount\":-1}")).isFalse();
  }

  @Test
  void entityProperty_conciseType_isStoredAsJsonSchema() {
    EntityDeclaration entity =
        component(
                dir,
                "billing.wallets",
                "entity:\n  properties:\n    owner: string\n" + "    tags: [string]\n")
            .entity()
            .orElseThrow();

    assertThat(entity.properties())
        .isEqualTo(
            json(
                "{\"owner\":{\"type\":\"string\"},"
                    + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}"));
    assertThat(entity.schema().validate(json("{\"tags\":[1]}"))).isNotEmpty();
  }

  @Test
  void jsonSchema_isKeptAsWritten() {
    Schema schema = input("{ type: object, properties: { limit: { type: number } } }");

    assertThat(schema.source())
        .isEqualTo(json("{\"type\":\"object\",\"properties\":{\"limit\":{\"type\":\"number\"}}}"));
  }
}
