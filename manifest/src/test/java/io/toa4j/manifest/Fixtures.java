package io.toa4j.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Manifests written to a temporary folder, and the refusals they cause. */
final class Fixtures {
  /** billing.wallets, as the seed declares it. */
  static final String WALLETS =
      """
      entity:
        associated: true
        properties:
          balance: { type: integer, minimum: 0 }
          paid: { type: object, additionalProperties: { type: integer } }
        required: [balance]
        blank: { balance: 0, paid: {} }

      operations:
        credit:
          concurrency: retry
          once: true
          query: true
          input:
            type: object
            properties:
              amount: { type: integer, minimum: 1 }
              type: { type: string, enum: [topup, refund, goodwill] }
              ref: { type: string } # what it was for: a checkout, an order
            required: [amount, type, ref]
        debit:
          query: true
          input:
            type: object
            properties:
              amount: { type: integer, minimum: 1 }
              ref: { type: string }
            required: [amount, ref]
          errors: [INSUFFICIENT_FUNDS]

      receivers:
        billing.topups.paid: credit

      exposition:
        /:id/credits:
          auth:role: store:wallets
          io:output: [id, balance]
          PUT: credit
      """;

  /** billing.topups, as the seed declares it. */
  static final String TOPUPS =
      """
      namespace: billing
      name: topups

      entity:
        associated: true
        properties:
          checkout: { type: string } # the provider's id of the checkout
          customer: { type: string }
          amount: { type: integer, minimum: 1 }
          currency: { type: string }

      operations:
        record:
          concurrency: retry
          query: true
          input:
            type: object
            properties:
              checkout: { type: string }
              customer: { type: string }
              amount: { type: integer }
              currency: { type: string }
            required: [checkout, customer, amount, currency]
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  private Fixtures() {}

  /** The JSON text as a tree. */
  static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  /** Whether the schema accepts the value written as JSON text. */
  static boolean fits(Schema schema, String value) {
    return schema.validate(json(value)).isEmpty();
  }

  /** Writes the text to {@code folder/relative}, creating folders; answers the file. */
  static Path write(Path folder, String relative, String text) {
    Path file = folder.resolve(relative);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** Writes a component's manifest into {@code parent/folder} and loads it. */
  static ComponentManifest component(Path parent, String folder, String manifest) {
    write(parent, folder + "/manifest.toa.yaml", manifest);
    return Manifests.loadComponent(parent.resolve(folder));
  }

  /**
   * The refusal the call throws, after checking that it is located in a file of that name at the
   * YAML path, and that its message says both.
   */
  static ManifestException refused(ThrowingCallable call, String fileName, String yamlPath) {
    ManifestException refusal = catchThrowableOfType(ManifestException.class, call);
    assertThat(refusal).as("the call is refused with a ManifestException").isNotNull();
    assertThat(refusal.location().file().getFileName()).hasToString(fileName);
    assertThat(refusal.location().yamlPath()).isEqualTo(yamlPath);
    assertThat(refusal).hasMessageContaining(fileName);
    if (!yamlPath.isEmpty()) {
      assertThat(refusal).hasMessageContaining(" at " + yamlPath + ": ");
    }
    return refusal;
  }
}
