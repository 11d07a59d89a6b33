package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static io.toa4j.manifest.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Anchors, aliases and merge keys in manifests and context files read as the values they stand for;
 * an alias that names nothing, or aliases that expand a document past the bound, are refused where
 * they are.
 */
class YamlAliasesTest {
  private static final String FILE = "manifest.toa.yaml";

  @TempDir Path dir;

  private ManifestException refused(String manifest, String yamlPath) {
    return Fixtures.refused(() -> component(dir, "billing.wallets", manifest), FILE, yamlPath);
  }

  /** Nine levels of ten aliases each: a few hundred bytes that would stand for a billion values. */
  static String laughs() {
    StringBuilder text =
        new StringBuilder("entity:\n  blank:\n    l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int level = 1; level < 9; level++) {
      String alias = "*l" + (level - 1);
      text.append("    l")
          .append(level)
          .append(": &l")
          .append(level)
          .append(" [")
          .append(String.join(", ", java.util.Collections.nCopies(10, alias)))
          .append("]\n");
    }
    return text.toString();
  }

  @Test
  void loadComponent_inputSchemaAnchoredOnce_isEachAliasingOperationsInput() {
    ComponentManifest wallets =
        component(
            dir,
            "billing.wallets",
            """
        operations:
          credit:
            input: &amount
              type: object
              properties: { amount: { type: integer, minimum: 1 } }
              required: [amount]
          debit:
            input: *amount
        """);

    var credit = wallets.operations().get("credit").input().orElseThrow().source();
    var debit = wallets.operations().get("debit").input().orElseThrow().source();
    assertThat(debit).isEqualTo(credit);
    assertThat(debit.at("/properties/amount/minimum").asInt()).isEqualTo(1);
  }

  @Test
  void loadComponent_mergeKey_bringsTheAnchoredKeys_andTheMappingsOwnKeysWin() {
    ComponentManifest wallets =
        component(
            dir,
            "billing.wallets",
            """
        operations:
          credit:
            input: &base
              type: object
              properties: { amount: { type: integer, minimum: 1 } }
              required: [amount]
          debit:
            input:
              required: [amount, ref]
              <<: *base
          refund:
            input:
              <<: [{ required: [ref] }, *base]
              properties: { ref: { type: string } }
        """);

    var debit = wallets.operations().get("debit").input().orElseThrow().source();
    var refund = wallets.operations().get("refund").input().orElseThrow().source();
    assertThat(debit.toString())
        .isEqualTo(
            "{\"required\":[\"amount\",\"ref\"],\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"integer\",\"minimum\":1}}}");
    // the first merged mapping wins over the later one; the mapping's own key over both
    assertThat(refund.toString())
        .isEqualTo(
            "{\"properties\":{\"ref\":{\"type\":\"string\"}},\"required\":[\"ref\"],\"type\":\"object\"}");
  }

  @Test
  void loadComponent_keyWrittenTwiceBesideAMergeKey_isStillRefused() {
    ManifestException e =
        refused(
            """
        operations:
          credit:
            input: &base { type: object }
          debit:
            input: { <<: *base, type: object, type: array }
        """,
            "operations.debit.input.type");

    assertThat(e).hasMessageContainingAll("the key 'type' appears twice in one mapping", "line 5");
  }

  @Test
  void loadComponent_documentExpandingPastTheBound_isRefusedNamingIt() {
    ManifestException e = refused(laughs(), "entity.blank.l4[7]");

    assertThat(e)
        .hasMessageContainingAll(
            "the document expands past 100000 values through its aliases",
            "(line 7)",
            "use fewer aliases");
  }

  @Test
  void loadComponent_aliasToNoAnchor_isRefusedWithItsLine() {
    ManifestException e =
        refused(
            """
        operations:
          credit: { input: &amount { type: integer } }
          debit: { input: *amuont }
        """,
            "operations.debit.input");

    assertThat(e)
        .hasMessageContainingAll(
            "the alias *amuont names no anchor above it (line 3)", "put &amuont on the value");
  }

  @Test
  void loadComponent_mergeKeyOfAScalar_isRefusedWithItsLine() {
    ManifestException e =
        refused(
            """
        operations:
          credit:
            input: { <<: object }
        """,
            "operations.credit.input");

    assertThat(e).hasMessageContainingAll("the merge key << takes a mapping", "(line 3)");
  }

  @Test
  void loadContext_optionsShared_byAnAliasAndAMergeKey() {
    write(
        dir,
        "context.toa.yaml",
        """
        name: shop
        storage: { engine: postgres, options: &common { user: shop, pool-size: 4 } }
        bus: { engine: rabbitmq, options: { <<: *common, prefetch: 32, user: broker } }
        """);

    ContextManifest shop = Manifests.loadContext(dir);

    assertThat(shop.storage().options())
        .containsExactly(Map.entry("pool-size", "4"), Map.entry("user", "shop"));
    assertThat(shop.bus().options())
        .containsExactly(
            Map.entry("pool-size", "4"), Map.entry("prefetch", "32"), Map.entry("user", "broker"));
  }
}
