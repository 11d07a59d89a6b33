package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.toa4j.api.Query;
import io.toa4j.api.Request;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import io.toa4j.storage.sqlite.SqliteStorageProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A context built with {@link Toa#builder()}: from each source of components, with engines found by
 * name.
 */
class BuilderTest {
  static final String ID = "0123456789abcdef0123456789abcdef";
  static final String STAMPS =
      """
      entity:
        associated: true
        properties:
          count: { type: integer }
      operations:
        touch:
          query: true
      """;

  @TempDir Path directory;

  @Test
  void build_componentsFromFolders_serveThemWithStateWhereTold() {
    Path shop = Shop.copyTo(directory.resolve("shop"));
    Path state = directory.resolve("state");

    try (Toa toa =
        Toa.builder()
            .name("shop")
            .component(shop.resolve("components/billing.wallets"))
            .component(shop.resolve("components/billing.topups"))
            .state(state)
            .build()) {
      toa.call("billing.wallets.credit", credit(5000, "welcome"), "edge-1");
      toa.call("billing.wallets.credit", credit(5000, "welcome"), "edge-1");

      assertThat(Shop.output(toa.call("billing.wallets.observe", Request.id(ID))))
          .containsEntry("balance", 5000L)
          .containsEntry("VERSION", 1L);
      assertThat(toa.context().name()).isEqualTo("shop");
      assertThat(toa.state()).isEqualTo(state);
      assertThat(state.resolve("storage")).isDirectory();
      assertThat(shop.resolve(".toa")).doesNotExist();
    }
  }

  @Test
  void build_componentOnTheClassPath_readsItsManifestBesideItsClasses() {
    try (Toa toa =
        Toa.builder()
            .name("stamps")
            .componentOnClassPath("test.precompiled")
            .state(directory)
            .build()) {
      toa.call("test.precompiled.touch", Request.id(ID));

      assertThat(Shop.output(toa.call("test.precompiled.touch", Request.id(ID))))
          .containsEntry("count", 2L);
      assertThat(toa.context().components().get(0).file())
          .hasToString("classpath:test/precompiled/manifest.toa.yaml");
    }
  }

  @Test
  void build_componentDeclaredInCode_runsItsClassesFromTheClassPath() {
    try (Toa toa =
        Toa.builder()
            .name("stamps")
            .component("test.precompiled", STAMPS)
            .state(directory)
            .build()) {
      assertThat(Shop.output(toa.call("test.precompiled.touch", Request.id(ID))))
          .containsEntry("count", 1L)
          .containsEntry("VERSION", 1L);
    }
  }

  @Test
  void build_componentOnTheClassPathThatIsNotThere_isRefusedSayingWhere() {
    assertThatThrownBy(() -> Toa.builder().componentOnClassPath("test.nowhere"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("test/nowhere/manifest.toa.yaml");
  }

  @Test
  void build_anEngineProviderGivenInCode_isFoundByItsName() {
    AtomicInteger opened = new AtomicInteger();
    StorageProvider given =
        new StorageProvider() {
          @Override
          public String name() {
            return "given";
          }

          @Override
          public Storage open(StorageSettings settings) {
            opened.incrementAndGet();
            return new SqliteStorageProvider().open(settings);
          }
        };

    try (Toa toa =
        Toa.builder()
            .name("stamps")
            .component("test.precompiled", STAMPS)
            .engine(given)
            .storage("given", Map.of("path", directory.resolve("given")))
            .state(directory)
            .build()) {
      toa.call("test.precompiled.touch", Request.id(ID));

      assertThat(opened).hasValue(1);
      assertThat(directory.resolve("given"))
          .isDirectoryContaining(p -> p.getFileName().toString().startsWith("test.precompiled"));
    }
  }

  @Test
  void build_aThirdEngineOnTheClassPath_isPickedUpByName() {
    String label = UUID.randomUUID().toString();

    try (Toa toa =
        Toa.builder()
            .name("stamps")
            .component("test.precompiled", STAMPS)
            .storage("counting", Map.of("label", label))
            .state(directory)
            .build()) {
      toa.call("test.precompiled.touch", Request.id(ID));
      toa.call("test.precompiled.touch", Request.id(ID));

      assertThat(CountingStorageProvider.COMMITS.get(label)).hasValue(2);
      assertThat(toa.describe()).startsWith("the counting storage over");
    }
  }

  @Test
  void build_aThirdEngineNamedInTheContextFile_isPickedUpWithItsOptions() throws Exception {
    String label = UUID.randomUUID().toString();
    Files.writeString(
        directory.resolve("context.toa.yaml"),
        """
        name: stamps
        storage: { engine: counting, options: { label: %s } }
        """
            .formatted(label));

    try (Toa toa =
        Toa.builder().directory(directory).component("test.precompiled", STAMPS).build()) {
      toa.call("test.precompiled.touch", Request.id(ID));

      assertThat(CountingStorageProvider.COMMITS.get(label)).hasValue(1);
    }
  }

  @Test
  void build_unknownEngine_isRefusedWithTheEnginesFound() {
    assertThatThrownBy(
            () ->
                Toa.builder().name("stamps").storage("mongodb", Map.of()).state(directory).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("Toa.builder() at storage: there is no storage engine 'mongodb'")
        .hasMessageContaining("(found: counting, postgres, sqlite)");
    assertThatThrownBy(
            () -> Toa.builder().name("stamps").bus("kafka", Map.of()).state(directory).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("there is no bus engine 'kafka'")
        .hasMessageContaining("(found: embedded, rabbitmq)");
    assertThat(directory.resolve("storage")).as("nothing was opened").doesNotExist();
  }

  @Test
  void build_unknownOption_isRefusedByNameSayingWhereItIsDeclared() throws Exception {
    assertThatThrownBy(
            () ->
                Toa.builder()
                    .name("stamps")
                    .storage("sqlite", Map.of("journal", "wal"))
                    .state(directory)
                    .build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("Toa.builder() at storage: the storage (sqlite) refused its options")
        .hasMessageContaining("no option 'journal'");
    Files.writeString(
        directory.resolve("context.toa.yaml"),
        """
        name: stamps
        bus: { engine: embedded, options: { poll-interval-ms: 0 } }
        """);
    assertThatThrownBy(() -> Toa.builder().directory(directory).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("context.toa.yaml at bus: the bus (embedded) refused its options")
        .hasMessageContaining("poll-interval-ms is '0'");
  }

  @Test
  void build_twoProvidersOfOneName_areRefused() {
    StorageProvider impostor =
        new StorageProvider() {
          @Override
          public String name() {
            return "sqlite";
          }

          @Override
          public Storage open(StorageSettings settings) {
            throw new AssertionError("never opened");
          }
        };

    assertThatThrownBy(() -> Toa.builder().name("stamps").engine(impostor).state(directory).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("Two storage engines are named 'sqlite'");
  }

  @Test
  void build_theHostsMeterRegistry_getsTheRuntimesMeters() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Path shop = Shop.copyTo(directory.resolve("shop"));

    try (Toa toa =
        Toa.builder()
            .directory(shop)
            .state(directory.resolve("state"))
            .meterRegistry(registry)
            .build()) {
      toa.call("billing.wallets.credit", credit(100, "a"), "edge-1");
      toa.call("billing.wallets.credit", credit(100, "a"), "edge-1");

      assertThat(
              registry
                  .get("toa.inbox.answers")
                  .tag("operation", "billing.wallets.credit")
                  .counter()
                  .count())
          .isEqualTo(1.0);
      assertThat(registry.find("toa.outbox.backlog").gauge()).isNotNull();
    }
  }

  @Test
  void build_announceAll_publishesTheEventsNoReceiverConsumes() throws Exception {
    try (Toa quiet =
        Toa.builder()
            .name("stamps")
            .component("test.precompiled", STAMPS)
            .state(directory.resolve("quiet"))
            .build()) {
      quiet.call("test.precompiled.touch", Request.id(ID));
      assertThat(quiet.admin().settle(SeedFlowTest.SETTLE)).isEmpty();
    }
    try (Toa announcing =
        Toa.builder()
            .name("stamps")
            .component("test.precompiled", STAMPS)
            .state(directory.resolve("announcing"))
            .announceAll()
            .build()) {
      announcing.call("test.precompiled.touch", Request.id(ID));
      assertThat(announcing.admin().settle(SeedFlowTest.SETTLE)).isEmpty();
    }

    assertThat(outbox(directory.resolve("quiet"))).as("no receiver, no outbox").isEmpty();
    assertThat(outbox(directory.resolve("announcing")))
        .as("the touch's change, published")
        .containsExactly("published");
  }

  /** Whether each outbox entry of test.precompiled under this state folder is published. */
  private static java.util.List<String> outbox(Path state) throws Exception {
    java.util.List<String> entries = new java.util.ArrayList<>();
    try (var c =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + state.resolve("storage/test.precompiled.db"));
        var r = c.createStatement().executeQuery("SELECT published FROM outbox")) {
      while (r.next()) entries.add(r.getObject(1) == null ? "unpublished" : "published");
    }
    return entries;
  }

  @Test
  void build_withoutAName_isRefusedSayingHowToGiveOne() {
    assertThatThrownBy(() -> Toa.builder().state(directory).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("name(\"shop\")");
    assertThatThrownBy(() -> Toa.builder().name("Shop!"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a context name");
  }

  @Test
  void connect_hostsNothingAndOpensNothingUntilAsked() {
    Path shop = Shop.copyTo(directory.resolve("shop"));

    try (Toa toa = Toa.builder().directory(shop).connect()) {
      assertThat(toa.hosted()).isEmpty();
      assertThat(shop.resolve(".toa")).as("no engine opened yet").doesNotExist();
      assertThat(toa.admin().parked()).isEmpty();
    }
  }

  private static Request credit(long amount, String ref) {
    return Request.of(Query.id(ID), Map.of("amount", amount, "type", "goodwill", "ref", ref));
  }
}
