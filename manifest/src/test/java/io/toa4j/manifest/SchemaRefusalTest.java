package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No schema loads as "anything": a key that is not a keyword, a form that is neither concise nor
 * JSON Schema, and a reference with nothing to refer to are refused at their file, path and line.
 */
class SchemaRefusalTest {
  private static final String FILE = "manifest.toa.yaml";

  @TempDir Path dir;

  private ManifestException refused(String manifest, String yamlPath) {
    return Fixtures.refused(() -> component(dir, "billing.wallets", manifest), FILE, yamlPath);
  }

  /** A component without entity whose operation {@code look} has the input (from line 4). */
  private ManifestException refusedInput(String input, String yamlPath) {
    return refused("operations:\n  look:\n    type: computation\n    input:\n" + input, yamlPath);
  }

  @Test
  void misspeltKeyword_isRefusedWithTheLineAndTheKeywordMeant() {
    ManifestException e =
        refusedInput(
            "      type: object\n      properties: { limit: { type: number } }\n"
                + "      requried: [limit]\n",
            "operations.look.input.requried");

    assertThat(e)
        .hasMessageContainingAll(
            "'requried' is not a JSON Schema keyword (line 7)", "did you mean 'required'?");
  }

  @Test
  void misspeltKeywordDeepInside_isRefusedAtItsPath() {
    ManifestException e =
        refusedInput(
            "      type: object\n      properties:\n        name: { type: string, maxLenght: 9 }\n",
            "operations.look.input.properties.name.maxLenght");

    assertThat(e).hasMessageContainingAll("(line 7)", "did you mean 'maxLength'?");
  }

  @Test
  void misspeltKeywordInAListOfSchemas_isRefusedAtItsPath() {
    ManifestException e =
        refusedInput(
            "      anyOf:\n        - { type: string }\n        - { type: integer, minimun: 1 }\n",
            "operations.look.input.anyOf[1].minimun");

    assertThat(e).hasMessageContainingAll("(line 7)", "did you mean 'minimum'?");
  }

  @Test
  void nullableOtherThanTrueOrFalse_isRefusedSayingWhatToWrite() {
    ManifestException e =
        refusedInput(
            "      type: string\n      nullable: yes please\n", "operations.look.input.nullable");

    assertThat(e)
        .hasMessageContainingAll(
            "'nullable' is true or false, found the string 'yes please' (line 6)",
            "write nullable: true");
  }

  @Test
  void defaultThatDoesNotFitItsSchema_isRefusedAtItsPath() {
    ManifestException e =
        refusedInput(
            "      type: object\n      properties:\n        page:\n"
                + "          properties:\n            size: { type: integer, minimum: 1, default: 0 }\n",
            "operations.look.input.properties.page.properties.size.default");

    assertThat(e)
        .hasMessageContainingAll(
            "the default the number 0 does not fit its own schema (line 9)",
            "must have a minimum value of 1",
            "write a default the schema accepts");
  }

  @Test
  void defaultOfAnEntityProperty_isCheckedToo() {
    ManifestException e =
        refused(
            "entity:\n  properties:\n    owner: { type: string, default: 7 }\n",
            "entity.properties.owner.default");

    assertThat(e).hasMessageContainingAll("the default the number 7 does not fit its own schema");
  }

  @Test
  void conciseMappingWithATypeNameInCapitals_isRefusedNamingTheType() {
    ManifestException e = refusedInput("      limit: Number\n", "operations.look.input.limit");

    assertThat(e)
        .hasMessageContainingAll(
            "'Number' is not a concise type (line 5)",
            "write number, in lower case",
            "default: Number");
  }

  @Test
  void annotationOnlyMapping_isRefusedAsItWouldAcceptAnything() {
    ManifestException e = refusedInput("      title: string\n", "operations.look.input.title");

    assertThat(e).hasMessageContainingAll("would accept any value (line 5)", "properties:");
  }

  @Test
  void listOfTwoTypes_isRefusedPointingToEnumAndOneOf() {
    ManifestException e = refusedInput("      [string, number]\n", "operations.look.input");

    assertThat(e).hasMessageContainingAll("has one item", "found 2", "enum", "oneOf");
  }

  @Test
  void propertyReferenceWithoutEntity_isRefusedNamingTheProperty() {
    ManifestException e =
        refusedInput("      { amount: .balance }\n", "operations.look.input.amount");

    assertThat(e)
        .hasMessageContainingAll(
            "'.balance' refers to the entity's property 'balance'", "the component has no entity");
  }

  @Test
  void propertyReferenceToAnUndeclaredProperty_isRefusedListingTheDeclared() {
    ManifestException e =
        refused(
            "entity:\n  properties:\n    balance: integer\noperations:\n  look:\n"
                + "    type: observation\n    input: { amount: .balanse }\n",
            "operations.look.input.amount");

    assertThat(e).hasMessageContainingAll("'balanse'", "not declared (line 7)", ".balance");
  }

  @Test
  void propertyReferenceInsideTheEntity_isRefused() {
    ManifestException e =
        refused(
            "entity:\n  properties:\n    balance: integer\n    floor: .balance\n",
            "entity.properties.floor");

    assertThat(e).hasMessageContaining("an entity's properties cannot refer to one another");
  }

  @Test
  void misspeltKeywordInAnEntityProperty_isRefused() {
    ManifestException e =
        refused(
            "entity:\n  properties:\n    balance: { type: integer, minimun: 0 }\n",
            "entity.properties.balance.minimun");

    assertThat(e).hasMessageContainingAll("(line 3)", "did you mean 'minimum'?");
  }

  @Test
  void unknownKeyFarFromAnyKeyword_isRefusedWithoutAGuess() {
    ManifestException e =
        refusedInput(
            "      type: string\n      colourfulness: 3\n", "operations.look.input.colourfulness");

    assertThat(e)
        .hasMessageContaining("write draft 2020-12 keywords only")
        .hasMessageNotContaining("did you mean");
  }

  @Test
  void toaWildcardKey_isRefusedSayingWhatToWrite() {
    ManifestException e = refusedInput("      { ~: number }\n", "operations.look.input.~");

    assertThat(e)
        .hasMessageContainingAll(
            "wildcard key '~' is not read here (line 5)", "additionalProperties");
  }

  @Test
  void toaPatternKey_isRefusedSayingWhatToWrite() {
    ManifestException e = refusedInput("      /^a/: number\n", "operations.look.input./^a/");

    assertThat(e).hasMessageContainingAll("(line 5)", "patternProperties: { '^a'");
  }
}
