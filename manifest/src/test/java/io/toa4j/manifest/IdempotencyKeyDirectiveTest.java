package io.toa4j.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exposition directive {@code io:idempotency-key}: required or optional, checked at load. */
class IdempotencyKeyDirectiveTest {
  @TempDir Path dir;

  private static final String FILE = "manifest.toa.yaml";

  private ComponentManifest load(String manifest) {
    return Fixtures.component(dir, "billing.wallets", manifest);
  }

  @Test
  void loadComponent_keyRequiredOnARoute_isKeptInTheExposition() {
    ComponentManifest manifest =
        load(
            Fixtures.WALLETS.replace(
                "PUT: credit", "io:idempotency-key: required\n    PUT: credit"));

    assertThat(
            manifest
                .exposition()
                .orElseThrow()
                .path("/:id/credits")
                .path("io:idempotency-key")
                .asText())
        .isEqualTo("required");
  }

  @Test
  void loadComponent_keyRuleNeitherRequiredNorOptional_isRefusedAtItsPath() {
    String manifest =
        Fixtures.WALLETS.replace("PUT: credit", "io:idempotency-key: always\n    PUT: credit");

    ManifestException e =
        Fixtures.refused(
            () -> Fixtures.component(dir, "billing.wallets", manifest),
            FILE,
            "exposition./:id/credits.io:idempotency-key");

    assertThat(e).hasMessageContainingAll("'always' is not a rule", "required", "optional");
  }

  @Test
  void loadComponent_keyRuleNotAString_isRefused() {
    String manifest =
        Fixtures.WALLETS.replace("PUT: credit", "io:idempotency-key: true\n    PUT: credit");

    ManifestException e =
        Fixtures.refused(
            () -> Fixtures.component(dir, "billing.wallets", manifest),
            FILE,
            "exposition./:id/credits.io:idempotency-key");

    assertThat(e).hasMessageContainingAll("expected a string", "io:idempotency-key: required");
  }
}
