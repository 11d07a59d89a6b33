package io.toa4j.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

class SchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private EntityDeclaration wallet;
  private Schema creditInput;

  @BeforeEach
  void load() {
    ComponentManifest wallets = Fixtures.component(dir, "billing.wallets", Fixtures.WALLETS);
    wallet = wallets.entity().orElseThrow();
    creditInput = wallets.operations().get("credit").input().orElseThrow();
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  @Test
  void validate_valueFitting_answersNoViolation() throws Exception {
    JsonNode value = json("{\"balance\":5000,\"paid\":{\"o1\":100}}");

    assertThat(wallet.schema().validate(value)).isEmpty();
  }

  @Test
  void validate_valueUnderMinimum_answersItsPointer() throws Exception {
    assertThat(creditInput.validate(json("{\"amount\":0,\"type\":\"topup\",\"ref\":\"co_1\"}")))
        .containsExactly(new Violation("/amount", "must have a minimum value of 1"));
  }

  @Test
  void validate_missingRequiredProperty_answersTheObjectAndNamesTheProperty() throws Exception {
    assertThat(wallet.schema().validate(json("{\"paid\":{}}")))
        .containsExactly(new Violation("", "required property 'balance' not found"));
  }

  @Test
  void validate_missingRequiredPropertyOfAChangeset_answersNoViolation() throws Exception {
    assertThat(wallet.changeset().validate(json("{\"paid\":{}}"))).isEmpty();
  }

  @Test
  void validate_extraPropertyOnEntity_answersThePropertysPointer() throws Exception {
    assertThat(wallet.schema().validate(json("{\"balance\":1,\"colour\":\"red\"}")))
        .extracting(Violation::path, Violation::message)
        .singleElement()
        .satisfies(
            violation -> {
              assertThat(violation.toList().get(0)).isEqualTo("/colour");
              assertThat((String) violation.toList().get(1))
                  .contains("'colour'", "does not allow additional properties");
            });
  }

  @Test
  void validate_severalViolations_answersThemInDocumentOrder() throws Exception {
    JsonNode value = json("{\"colour\":\"red\",\"paid\":{\"o1\":\"x\"},\"balance\":-1}");

    assertThat(wallet.schema().validate(value))
        .extracting(Violation::path)
        .containsExactly("/colour", "/paid/o1", "/balance");
  }

  @Test
  void validate_pointerOfAKeyWithASlash_isEscaped() throws Exception {
    assertThat(wallet.schema().validate(json("{\"balance\":1,\"paid\":{\"a/b\":\"x\"}}")))
        .extracting(Violation::path)
        .containsExactly("/paid/a~1b");
  }
}
