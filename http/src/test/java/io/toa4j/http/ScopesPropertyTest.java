package io.toa4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The role hierarchy: a held scope covers itself and the scopes under it, level by level. */
class ScopesPropertyTest {

  @Provide
  Arbitrary<List<String>> levels() {
    return Arbitraries.strings()
        .withChars("abcAB09_-")
        .ofMinLength(1)
        .ofMaxLength(6)
        .list()
        .ofMinSize(1)
        .ofMaxSize(5);
  }

  @Property
  void aScope_coversItselfAndEveryScopeUnderIt(
      @ForAll("levels") List<String> held, @ForAll("levels") List<String> below) {
    String scope = String.join(":", held);
    String narrower = scope + ":" + String.join(":", below);

    assertThat(Scopes.covers(scope, scope)).isTrue();
    assertThat(Scopes.covers(scope, narrower)).isTrue();
  }

  @Property
  void aNarrowerScope_neverCoversAWiderOne(
      @ForAll("levels") List<String> held, @ForAll("levels") List<String> below) {
    String scope = String.join(":", held);

    assertThat(Scopes.covers(scope + ":" + String.join(":", below), scope)).isFalse();
  }

  @Property
  void aScopeThatIsAPrefixWithinALevel_coversNothingOfTheLongerLevel(
      @ForAll("levels") List<String> held, @ForAll("levels") List<String> rest) {
    // store:wal against store:wallets...: the last level is cut inside, not at a ':'
    String full =
        String.join(":", held) + "x" + (rest.isEmpty() ? "" : ":" + String.join(":", rest));
    String cut = String.join(":", held);

    assertThat(Scopes.covers(cut, full)).isFalse();
  }

  @Property
  void covering_isTransitive(
      @ForAll("levels") List<String> a,
      @ForAll("levels") List<String> b,
      @ForAll("levels") List<String> c) {
    String wide = String.join(":", a);
    String middle = wide + ":" + String.join(":", b);
    String narrow = middle + ":" + String.join(":", c);

    assertThat(Scopes.covers(wide, middle) && Scopes.covers(middle, narrow)).isTrue();
    assertThat(Scopes.covers(wide, narrow)).isTrue();
  }

  @Property
  void generatedScopes_areValid(@ForAll("levels") List<String> levels) {
    assertThat(Scopes.valid(String.join(":", levels))).isTrue();
  }

  @Example
  void theExamplesOfTheDocs() {
    assertThat(Scopes.covers("store", "store:wallets")).isTrue();
    assertThat(Scopes.covers("store", "store:wallets:x")).isTrue();
    assertThat(Scopes.covers("store:wal", "store:wallets")).isFalse();
    assertThat(Scopes.covers("store:wallets", "store")).isFalse();
    assertThat(Scopes.covers("stores", "store")).isFalse();
    assertThat(Scopes.grant(List.of("other", "store"), List.of("admin", "store:wallets"))).isTrue();
    assertThat(Scopes.grant(List.of(), List.of("store"))).isFalse();
    assertThat(Scopes.grant(List.of("store"), List.of())).isFalse();
  }

  @Example
  void malformedScopes_areRefusedSayingTheRule() {
    for (String bad :
        List.of(
            "",
            ":",
            "store:",
            ":store",
            "store::wallets",
            "store wallets",
            "store/wallets",
            "x".repeat(256))) {
      assertThat(Scopes.valid(bad)).as(bad).isFalse();
      assertThatThrownBy(() -> Scopes.check(bad))
          .isInstanceOf(IdentityException.class)
          .hasMessageContaining("is not a role scope")
          .hasMessageContaining("store:wallets")
          .extracting(e -> ((IdentityException) e).reason())
          .isEqualTo(IdentityException.Reason.MALFORMED);
    }
  }
}
