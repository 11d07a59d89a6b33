package io.toa4j.test.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.manifest.Manifests;
import io.toa4j.manifest.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@link SchemaValues} against the manifest's own validator: what it draws for the keywords it
 * follows fits.
 */
class SchemaValuesTest {
  private static final String ID = "0c1d2e3f405162738495a6b7c8d9eaf0";

  /** An input schema with every keyword the generator follows, read as a manifest reads it. */
  private static final Schema INPUT =
      Manifests.readComponent(
              """
      operations:
        order:
          input:
            type: object
            properties:
              amount: { type: integer, minimum: 1, maximum: 1000000000 }
              share: { type: number, exclusiveMinimum: 0, exclusiveMaximum: 1 }
              step: { type: integer, minimum: 10, multipleOf: 5 }
              kind: { type: string, enum: [topup, refund, goodwill] }
              fixed: { const: 3 }
              code: { type: string, minLength: 2, maxLength: 4 }
              customer: { type: string, pattern: "^[0-9a-fA-F]{32}$" }
              lines: { type: array, items: { $ref: "#/$defs/line" }, minItems: 1, maxItems: 3 }
              pair: { type: array, prefixItems: [{ type: string }, { type: boolean }], items: false }
              either: { oneOf: [{ type: integer, maximum: -1 }, { type: string, maxLength: 0 }] }
              paid: { type: object, additionalProperties: { type: integer, minimum: 0 } }
              note: { type: [string, "null"] }
            required: [amount, kind, customer, lines]
            additionalProperties: false
            $defs:
              line:
                type: object
                properties:
                  sku: { type: string }
                  quantity: { type: integer, minimum: 1, maximum: 9 }
                required: [sku, quantity]
      """,
              "test.values",
              "a test")
          .operations()
          .get("order")
          .input()
          .orElseThrow();

  @Test
  void everyValueDrawnForTheKeywordsItFollows_fitsTheSchema() {
    SchemaValues values = new SchemaValues(new Random(3), List.of(ID));
    JsonNode schema = INPUT.source();
    for (int i = 0; i < 500; i++) {
      JsonNode value = values.draw(schema, schema);
      assertThat(INPUT.validate(value)).as("%s", value).isEmpty();
    }
  }

  @Test
  void anIdPattern_drawsAnIdOfARecordThatExists_mostTimes() {
    SchemaValues values = new SchemaValues(new Random(5), List.of(ID));
    JsonNode schema = INPUT.source();
    List<String> customers = new ArrayList<>();
    for (int i = 0; i < 200; i++)
      customers.add(values.draw(schema, schema).get("customer").asString());

    assertThat(customers).allMatch(c -> c.matches("[0-9a-f]{32}"));
    assertThat(customers.stream().filter(ID::equals).count()).isBetween(100L, 190L);
  }

  @Test
  void theSameSeed_drawsTheSameValues() {
    JsonNode schema = INPUT.source();
    SchemaValues one = new SchemaValues(new Random(7), List.of(ID));
    SchemaValues other = new SchemaValues(new Random(7), List.of(ID));
    for (int i = 0; i < 20; i++)
      assertThat(one.draw(schema, schema)).isEqualTo(other.draw(schema, schema));
  }

  @Test
  void valuesComeFromSmallPools_soThatDrawsMeet() {
    SchemaValues values = new SchemaValues(new Random(9), List.of());
    JsonNode schema = INPUT.source();
    Set<String> kinds = new TreeSet<>();
    Set<Long> amounts = new TreeSet<>();
    for (int i = 0; i < 200; i++) {
      JsonNode value = values.draw(schema, schema);
      kinds.add(value.get("kind").asString());
      amounts.add(value.get("amount").asLong());
    }

    assertThat(kinds).containsExactly("goodwill", "refund", "topup");
    assertThat(amounts).contains(1L, 1_000_000_000L).hasSizeLessThan(200);
  }
}
