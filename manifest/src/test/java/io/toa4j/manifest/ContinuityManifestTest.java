package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code continuity: { <effect>: <seconds> }} as Toa declares it: read with each window, and
 * refused, naming the key, for what is not an effect of the component, a window under ten minutes,
 * or no window.
 */
class ContinuityManifestTest {
  @TempDir Path dir;

  private ComponentManifest parcels(String continuity) {
    return component(
        dir,
        "fulfilment.parcels",
        """
        entity:
          properties:
            booking: { type: string }
        operations:
          pack: { type: effect, input: { type: object } }
          label: { type: transition, input: { type: object } }
        continuity:
        %s
        """
            .formatted(continuity.indent(2)));
  }

  @Test
  void aContinuousEffect_isReadWithItsWindow_andOthersAreNot() {
    ComponentManifest parcels = parcels("pack: 604800");

    assertThat(parcels.continuity()).isEqualTo(Map.of("pack", 604800L));
    assertThat(parcels.continuous("pack")).isTrue();
    assertThat(parcels.continuous("label")).isFalse();
  }

  @Test
  void aComponentWithoutTheKey_hasNoContinuousEffect() {
    ComponentManifest plain =
        component(dir, "fulfilment.plain", "operations:\n  pack: { type: effect }\n");

    assertThat(plain.continuity()).isEmpty();
  }

  @Test
  void anOperationOfAnotherType_isRefused_sayingOnlyAnEffectIsContinuous() {
    ManifestException e =
        Fixtures.refused(() -> parcels("label: 600"), "manifest.toa.yaml", "continuity.label");

    assertThat(e).hasMessageContaining("'label' is a transition, and only an effect is continuous");
  }

  @Test
  void anOperationTheComponentHasNot_isRefusedNamingThoseItHas() {
    ManifestException e =
        Fixtures.refused(() -> parcels("ship: 600"), "manifest.toa.yaml", "continuity.ship");

    assertThat(e)
        .hasMessageContaining("'ship' is not an operation of this component")
        .hasMessageContaining("pack");
  }

  @Test
  void aWindowUnderTenMinutes_orNone_orNotAWholeNumber_isRefused() {
    assertThat(Fixtures.refused(() -> parcels("pack: 599"), "manifest.toa.yaml", "continuity.pack"))
        .hasMessageContaining("at least 600 seconds; got 599");
    assertThat(Fixtures.refused(() -> parcels("pack:"), "manifest.toa.yaml", "continuity.pack"))
        .hasMessageContaining("found nothing; there is no default");
    assertThat(
            Fixtures.refused(() -> parcels("pack: a week"), "manifest.toa.yaml", "continuity.pack"))
        .hasMessageContaining("expected a whole number of seconds");
    assertThat(
            Fixtures.refused(() -> parcels("pack: 600.5"), "manifest.toa.yaml", "continuity.pack"))
        .hasMessageContaining("expected a whole number of seconds");
  }
}
