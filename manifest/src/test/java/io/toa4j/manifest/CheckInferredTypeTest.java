package io.toa4j.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Path;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckInferredTypeTest {
  @TempDir Path dir;

  private OperationDeclaration operation(String manifest, String name) {
    return Fixtures.component(dir, "billing.wallets", manifest).operations().get(name);
  }

  private static ManifestException refused(ThrowingCallable check, String yamlPath) {
    return Fixtures.refused(check, "manifest.toa.yaml", yamlPath);
  }

  @Test
  void checkInferredType_onceOnAnInferredEffect_isRefusedAtTheOperation() {
    OperationDeclaration send = operation("operations: { send: { once: 3600 } }", "send");

    ManifestException e =
        refused(
            () -> Manifests.checkInferredType(send, false, OperationType.EFFECT),
            "operations.send");

    assertThat(e)
        .hasMessageContainingAll(
            "once applies to transitions and assignments only",
            "send is an effect (inferred from its class)",
            "remove once");
  }

  @Test
  void checkInferredType_retryingCreditInferredAsAnEffect_isRefused() {
    OperationDeclaration credit = operation(Fixtures.WALLETS, "credit");

    ManifestException e =
        refused(
            () -> Manifests.checkInferredType(credit, true, OperationType.EFFECT),
            "operations.credit");

    assertThat(e)
        .hasMessageContainingAll(
            "concurrency applies to transitions only",
            "credit is an effect (inferred from its class)");
  }

  @Test
  void checkInferredType_seedCreditInferredAsATransition_passes() {
    OperationDeclaration credit = operation(Fixtures.WALLETS, "credit");

    assertThatCode(() -> Manifests.checkInferredType(credit, true, OperationType.TRANSITION))
        .doesNotThrowAnyException();
  }

  @Test
  void checkInferredType_inferredObservationWithoutEntity_isRefused() {
    OperationDeclaration look = operation("operations: { look: }", "look");

    ManifestException e =
        refused(
            () -> Manifests.checkInferredType(look, false, OperationType.OBSERVATION),
            "operations.look");

    assertThat(e).hasMessageContainingAll("which needs an entity", "declare an entity");
  }

  @Test
  void checkInferredType_classDisagreeingWithTheDeclaredType_isRefused() {
    OperationDeclaration send = operation("operations: { send: { type: effect } }", "send");

    ManifestException e =
        refused(
            () -> Manifests.checkInferredType(send, false, OperationType.COMPUTATION),
            "operations.send");

    assertThat(e)
        .hasMessageContainingAll("declares type: effect", "a computation", "make the two agree");
  }
}
