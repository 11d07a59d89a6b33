package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadContextTest {
  private static final String FILE = "context.toa.yaml";
  private static final String WALLETS = "components/billing.wallets/manifest.toa.yaml";

  @TempDir Path dir;

  private ManifestException refused(String fileName, String yamlPath) {
    return Fixtures.refused(() -> Manifests.loadContext(dir), fileName, yamlPath);
  }

  private ManifestException refusedContext(String context, String yamlPath) {
    write(dir, FILE, context);
    return refused(FILE, yamlPath);
  }

  @Test
  void loadContext_seedApplication_answersItsComponentsSortedByLabel() {
    write(dir, FILE, "name: shop\n");
    write(dir, WALLETS, Fixtures.WALLETS);
    write(dir, "components/billing.topups/manifest.toa.yaml", Fixtures.TOPUPS);
    write(dir, "components/.template/manifest.toa.yaml", "colour: red");

    ContextManifest shop = Manifests.loadContext(dir);

    assertThat(shop.directory()).isEqualTo(dir.toAbsolutePath().normalize());
    assertThat(shop.file()).isEqualTo(shop.directory().resolve(FILE));
    assertThat(shop.name()).isEqualTo("shop");
    assertThat(shop.storage().name()).isEqualTo("sqlite");
    assertThat(shop.bus().name()).isEqualTo("embedded");
    assertThat(shop.retryDelaysSeconds()).containsExactly(1L, 10L, 30L, 90L);
    assertThat(shop.outboxRetentionSeconds()).isEqualTo(86_400);
    assertThat(shop.inboxRetentionSeconds())
        .isEqualTo(ContextManifest.DEFAULT_INBOX_RETENTION_SECONDS);
    assertThat(shop.components())
        .extracting(ComponentManifest::label)
        .containsExactly("billing.topups", "billing.wallets");
    assertThat(shop.components().get(1).directory())
        .isEqualTo(shop.directory().resolve("components/billing.wallets"));
  }

  @Test
  void loadContext_declaredSettings_areAnswered() {
    write(
        dir,
        FILE,
        """
        name: shop-2
        components: [services/*, extra/mailer]
        storage: postgres
        inbox: { retention: 7200, remember: 86400 }
        """);
    write(dir, "services/store.orders/manifest.toa.yaml", "");
    write(dir, "extra/mailer/manifest.toa.yaml", "");
    write(dir, "components/ignored/manifest.toa.yaml", "");

    ContextManifest shop = Manifests.loadContext(dir);

    assertThat(shop.storage().name()).isEqualTo("postgres");
    assertThat(shop.inboxRetentionSeconds()).isEqualTo(7200);
    assertThat(shop.inboxRememberSeconds()).isEqualTo(86400);
    assertThat(shop.components())
        .extracting(ComponentManifest::label)
        .containsExactly("default.mailer", "store.orders");
  }

  @Test
  void loadContext_missingFile_isRefusedSayingHowToStartAContext() {
    ManifestException e = refused(FILE, "");

    assertThat(e)
        .hasMessageContainingAll(
            "there is no context.toa.yaml in " + dir.toAbsolutePath(),
            "name: <app>",
            "starts a context");
  }

  @Test
  void loadContext_unknownKey_isRefusedListingTheAllowedKeys() {
    ManifestException e = refusedContext("name: shop\nengine: sqlite\n", "engine");

    assertThat(e)
        .hasMessageContainingAll(
            "unknown key 'engine'",
            "name, description, version, components, storage, bus, inbox, outbox, delivery");
  }

  @Test
  void loadContext_missingName_isRefused() {
    ManifestException e = refusedContext("storage: sqlite\n", "");

    assertThat(e).hasMessageContainingAll("'name' is missing", "name: shop");
  }

  @Test
  void loadContext_badName_isRefusedAtName() {
    ManifestException e = refusedContext("name: Shop\n", "name");

    assertThat(e).hasMessageContainingAll("'Shop' is not a valid context name", "lowercase letter");
  }

  @Test
  void loadContext_storageNameOfCapitals_isRefusedWithTheRule() {
    ManifestException e = refusedContext("name: shop\nstorage: MongoDB\n", "storage");

    assertThat(e)
        .hasMessageContainingAll("'MongoDB' is not a valid engine name", "lowercase letter");
  }

  @Test
  void loadContext_inboxRetentionUnder600_isRefusedAtItsPath() {
    ManifestException e =
        refusedContext("name: shop\ninbox: { retention: 60 }\n", "inbox.retention");

    assertThat(e).hasMessageContainingAll("60 is under 600 seconds", "state 600 seconds or more");
  }

  @Test
  void loadContext_inboxRememberUnder600_isRefusedAtItsPath() {
    ManifestException e = refusedContext("name: shop\ninbox: { remember: 60 }\n", "inbox.remember");

    assertThat(e)
        .hasMessageContainingAll("60 is under 600 seconds", "leave remember out for 2592000");
  }

  @Test
  void loadContext_withoutInbox_remembersAnsweredCallsFor30Days() {
    write(dir, FILE, "name: shop\n");

    assertThat(Manifests.loadContext(dir).inboxRememberSeconds()).isEqualTo(30 * 86_400);
  }

  @Test
  void loadContext_unknownInboxKey_isRefused() {
    ManifestException e = refusedContext("name: shop\ninbox: { ttl: 600 }\n", "inbox.ttl");

    assertThat(e).hasMessageContainingAll("unknown key 'ttl'", "retention");
  }

  @Test
  void loadContext_twoComponentsWithTheSameLabel_isRefusedNamingBothFiles() {
    write(dir, FILE, "name: shop\n");
    Path first = write(dir, WALLETS, "");
    Path second =
        write(dir, "components/purses/manifest.toa.yaml", "namespace: billing\nname: wallets\n");

    ManifestException e = refused("manifest.toa.yaml", "");

    assertThat(e)
        .hasMessageContainingAll(
            "two components are labelled billing.wallets",
            first.toAbsolutePath().toString(),
            second.toAbsolutePath().toString(),
            "another namespace or name");
  }

  @Test
  void loadContext_matchedFolderWithoutManifest_isRefusedNamingTheFolder() {
    write(dir, FILE, "name: shop\n");
    write(dir, "components/billing.wallets/operations/Credit.java", "class Credit {}");

    ManifestException e = refused(FILE, "components");

    assertThat(e)
        .hasMessageContainingAll(
            "components/billing.wallets", "holds no manifest.toa.yaml", "add one");
  }

  @Test
  void loadContext_patternReachingOutside_isRefused() {
    ManifestException e = refusedContext("name: shop\ncomponents: [../other/*]\n", "components[0]");

    assertThat(e).hasMessageContainingAll("reaches outside the context's folder", "components/*");
  }

  @Test
  void loadContext_componentThatDoesNotFit_isRefusedInItsOwnFile() {
    write(dir, FILE, "name: shop\n");
    write(dir, WALLETS, "operations: { credit: { once: 300 } }");

    ManifestException e = refused("manifest.toa.yaml", "operations.credit.once");

    assertThat(e.location().file()).isEqualTo(dir.toAbsolutePath().resolve(WALLETS));
  }

  @Test
  void loadContext_deliverySettings_areAnswered() {
    write(
        dir,
        FILE,
        """
        name: shop
        bus: rabbitmq
        delivery: { retries: [2, 4] }
        outbox: { retention: 3600 }
        """);

    ContextManifest shop = Manifests.loadContext(dir);

    assertThat(shop.bus().name()).isEqualTo("rabbitmq");
    assertThat(shop.retryDelaysSeconds()).containsExactly(2L, 4L);
    assertThat(shop.outboxRetentionSeconds()).isEqualTo(3600);
  }

  @Test
  void loadContext_busNameThatIsNoName_isRefusedAtItsPath() {
    assertThat(refusedContext("name: shop\nbus: Kafka!\n", "bus"))
        .hasMessageContaining("engine name");
  }

  @Test
  void loadContext_anyEngineName_isLeftToTheRuntimeToFind() {
    write(dir, FILE, "name: shop\nbus: kafka\n");

    assertThat(Manifests.loadContext(dir).bus().name()).isEqualTo("kafka");
  }

  @Test
  void loadContext_engineOptions_areAnsweredAsText() {
    write(
        dir,
        FILE,
        """
        name: shop
        storage: { engine: postgres, url: "jdbc:postgresql://db/shop", options: { user: shop, pool-size: 4 } }
        bus: { engine: rabbitmq, options: { prefetch: 32, url: "amqp://broker" } }
        """);

    ContextManifest shop = Manifests.loadContext(dir);

    assertThat(shop.storage().options())
        .containsExactly(
            Map.entry("pool-size", "4"),
            Map.entry("url", "jdbc:postgresql://db/shop"),
            Map.entry("user", "shop"));
    assertThat(shop.bus().options())
        .containsExactly(Map.entry("prefetch", "32"), Map.entry("url", "amqp://broker"));
    assertThat(shop.bus().location()).hasToString(shop.file() + " at bus");
  }

  @Test
  void loadContext_urlGivenTwice_isRefusedAtTheOption() {
    assertThat(
            refusedContext(
                "name: shop\nbus: { engine: rabbitmq, url: \"amqp://a\", options: { url: \"amqp://b\" } }\n",
                "bus.options.url"))
        .hasMessageContaining("given twice");
  }

  @Test
  void loadContext_optionThatIsNotAValue_isRefusedAtIt() {
    assertThat(
            refusedContext(
                "name: shop\nbus: { engine: rabbitmq, options: { prefetch: [1, 2] } }\n",
                "bus.options.prefetch"))
        .hasMessageContaining("expected a value");
  }

  @Test
  void loadContext_negativeRetryDelay_isRefusedAtItsItem() {
    assertThat(
            refusedContext("name: shop\ndelivery: { retries: [1, -5] }\n", "delivery.retries[1]"))
        .hasMessageContaining("-5 is negative");
  }

  @Test
  void loadContext_outboxRetentionUnderAMinute_isRefused() {
    assertThat(refusedContext("name: shop\noutbox: { retention: 5 }\n", "outbox.retention"))
        .hasMessageContaining("under 60 seconds");
  }

  @Test
  void loadContext_enginesWithUrls_areAnswered() {
    write(
        dir,
        FILE,
        """
        name: shop
        storage: { engine: postgres, url: "jdbc:postgresql://db:5432/shop" }
        bus: { engine: rabbitmq, url: "amqp://broker:5672" }
        """);

    ContextManifest shop = Manifests.loadContext(dir);

    assertThat(shop.storage().name()).isEqualTo("postgres");
    assertThat(shop.storage().options())
        .containsExactly(Map.entry("url", "jdbc:postgresql://db:5432/shop"));
    assertThat(shop.bus().name()).isEqualTo("rabbitmq");
    assertThat(shop.bus().options()).containsExactly(Map.entry("url", "amqp://broker:5672"));
  }

  @Test
  void loadContext_engineMapWithAnUnknownKey_isRefusedAtIt() {
    assertThat(
            refusedContext("name: shop\nstorage: { engine: postgres, pool: 5 }\n", "storage.pool"))
        .hasMessageContaining("pool");
  }

  @Test
  void
      configuration_givesEachConfiguredComponentItsValues_underItsLabelOrItsNameInTheDefaultNamespace() {
    write(dir, "components/limits/manifest.toa.yaml", "configuration:\n  rounds: 10\n");
    write(dir, "components/billing.wallets/manifest.toa.yaml", "configuration:\n  limit: number\n");
    write(
        dir,
        FILE,
        "name: shop\nconfiguration:\n  limits: { rounds: 3 }\n  billing.wallets: { limit: $LIMIT }\n");

    ContextManifest shop = Manifests.loadContext(dir);

    assertThat(shop.configuration().keySet()).containsExactly("billing.wallets", "default.limits");
    assertThat(shop.configuration("default.limits").orElseThrow())
        .isEqualTo(Fixtures.json("{\"rounds\":3}"));
    assertThat(shop.configuration("billing.wallets").orElseThrow())
        .isEqualTo(Fixtures.json("{\"limit\":\"$LIMIT\"}"));
    assertThat(shop.configuration("billing.topups")).isEmpty();
  }

  @Test
  void configuration_givenTwice_orNotAMapping_isRefusedWhereWritten() {
    write(dir, "components/limits/manifest.toa.yaml", "configuration:\n  rounds: 10\n");

    assertThat(
            refusedContext(
                "name: shop\nconfiguration:\n  limits: { rounds: 3 }\n  default.limits: { rounds: 4 }\n",
                "configuration.default.limits"))
        .hasMessageContaining("the values of default.limits are given twice");
    assertThat(refusedContext("name: shop\nconfiguration:\n  limits: 3\n", "configuration.limits"))
        .hasMessageContaining("write the values of limits as a mapping");
    assertThat(
            refusedContext(
                "name: shop\nconfiguration:\n  limits:\n    rounds@staging: 4\n",
                "configuration.limits.rounds@staging"))
        .hasMessageContaining("@staging");
  }
}
