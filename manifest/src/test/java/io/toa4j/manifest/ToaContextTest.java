package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Toa's context file keys: those with a toa4j meaning are read, the others refused by name. */
class ToaContextTest {
  private static final String FILE = "context.toa.yaml";

  @TempDir Path dir;

  @Test
  void loadContext_toaKeysToa4jReads_loadWithTheirMeaning() {
    write(
        dir,
        FILE,
        """
        name: shop
        description: The shop of the Toa guide
        version: 1.2.0
        components: [components/*]
        storage: { engine: postgres, url: "jdbc:postgresql://127.0.0.1:5432/shop" }
        bus: { engine: rabbitmq, url: "amqp://127.0.0.1:5672" }
        inbox: { retention: 7200 }
        outbox: { retention: 3600 }
        """);
    write(dir, "components/billing.wallets/manifest.toa.yaml", Fixtures.WALLETS);

    ContextManifest shop = Manifests.loadContext(dir);

    assertThat(shop.name()).isEqualTo("shop");
    assertThat(shop.storage().name()).isEqualTo("postgres");
    assertThat(shop.storage().options())
        .isEqualTo(Map.of("url", "jdbc:postgresql://127.0.0.1:5432/shop"));
    assertThat(shop.bus().name()).isEqualTo("rabbitmq");
    assertThat(shop.bus().options()).isEqualTo(Map.of("url", "amqp://127.0.0.1:5672"));
    assertThat(shop.inboxRetentionSeconds()).isEqualTo(7200);
    assertThat(shop.outboxRetentionSeconds()).isEqualTo(3600);
    assertThat(shop.components())
        .extracting(ComponentManifest::label)
        .containsExactly("billing.wallets");
  }

  @Test
  void loadContext_numericVersion_isReadAsDocumentation() {
    write(dir, FILE, "name: shop\nversion: 2\n");

    assertThat(Manifests.loadContext(dir).name()).isEqualTo("shop");
  }

  @Test
  void loadContext_descriptionNotText_isRefusedAtItsPath() {
    write(dir, FILE, "name: shop\ndescription: [a, b]\n");

    ManifestException e = Fixtures.refused(() -> Manifests.loadContext(dir), FILE, "description");

    assertThat(e)
        .hasMessageContainingAll("expected a string, found a list", "describe the application");
  }

  @Test
  void loadContext_versionNotAValue_isRefusedAtItsPath() {
    write(dir, FILE, "name: shop\nversion: { major: 1 }\n");

    ManifestException e = Fixtures.refused(() -> Manifests.loadContext(dir), FILE, "version");

    assertThat(e).hasMessageContaining("expected a version such as 1.2.0, found a mapping");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          packages: ./components/*                                   | packages            | Toa's 'packages' is not read (line 2) | is written components: here, a list of glob patterns
          registry: registry.example.com/shop                        | registry            | Toa's 'registry' is not read (line 2) | builds and pushes no images
          'runtime: { version: 0.1.0 }'                              | runtime             | Toa's 'runtime' is not read (line 2)  | the toa4j version the program depends on; there is none in toa4j
          'compositions: [{ name: core, components: [a.b] }]'        | compositions        | Toa's 'compositions' is not read      | toa run <component>... on a bus that processes share, or Toa.builder().host(...)
          amqp: amqp://localhost                                     | amqp                | Toa's 'amqp' is not read              | write bus: { engine: rabbitmq, url: amqp://<host>:5672 }, or set TOA_BUS=rabbitmq and TOA_BUS_URL
          mongodb: mongodb://localhost                               | mongodb             | Toa's 'mongodb' is not read           | toa4j has no MongoDB storage; name one of its storages: storage: { engine: postgres
          sql: postgres://localhost                                  | sql                 | Toa's 'sql' is not read               | write storage: { engine: postgres
          'storages: { photos: s3://bucket }'                        | storages            | Toa's 'storages' is not read          | toa4j keeps no BLOBs
          stash: redis://localhost                                   | stash               | Toa's 'stash' is not read             | a shared cache; there is none in toa4j
          'atomicity: { redis: redis://localhost }'                  | atomicity           | Toa's 'atomicity' is not read         | needs no Redis; there is none in toa4j
          'addressed: { timeout: 5000 }'                             | addressed           | Toa's 'addressed' is not read         | addressed calls; every call goes to any process
          'cadence: { discreteness: 60 }'                            | cadence             | Toa's 'cadence' is not read           | pulses and delays; there is none in toa4j
          'events: [store.orders.created]'                           | events              | Toa's 'events' is not read            | Toa.builder().announceAll() publishes every event
          'exposition: { authorities: { main: localhost:8000 } }'    | exposition          | Toa's 'exposition' is not read        | toa run --http <host>:<port>
          'identity: { tokens: { lifetime: 3600 } }'                 | identity            | Toa's 'identity' is not read          | managed with toa identity; the token key is TOA_TOKEN_SECRET or TOA_TOKEN_SECRET_FILE
          'origins: { api: https://example.com }'                    | origins             | Toa's 'origins' is not read           | governed outbound HTTP; there is none in toa4j
          'introspection: { halt: true }'                            | introspection       | Toa's 'introspection' is not read     | halts and introspection; there is none in toa4j
          'telemetry: { otlp: http://localhost:4318 }'               | telemetry           | Toa's 'telemetry' is not read         | Toa.builder().meterRegistry(...)
          'realtime: { streams: redis://localhost }'                 | realtime            | Toa's 'realtime' is not read          | realtime streams; there is none in toa4j
          'ingress: { host: shop.example }'                          | ingress             | Toa's 'ingress' is not read           | toa4j deploys nothing; there is none in toa4j
          'convergence: { regions: [eu, us] }'                       | convergence         | Toa's 'convergence' is not read       | regions; there is none in toa4j
          'annotations: { amqp: amqp://localhost }'                  | annotations         | Toa's 'annotations' is not read       | toa4j's settings are the keys of this file, name, description
          '''@toa.io/bindings.amqp'': amqp://localhost'              | '@toa.io/bindings.amqp' | Toa's extension settings '@toa.io/bindings.amqp' are not read | write bus: { engine: rabbitmq
          '''@toa.io/extensions.sampling'': { on: true }'            | '@toa.io/extensions.sampling' | Toa's extension settings '@toa.io/extensions.sampling' are not read | there is none in toa4j
          storage@staging: postgres                                  | storage@staging     | Toa's per-environment variant 'storage@staging' (storage in the environment staging) is not read (line 2) | TOA_STORAGE, TOA_STORAGE_URL, TOA_BUS and TOA_BUS_URL, which override the engines this file names, or a context folder per environment
          'bus: { engine: rabbitmq, url@local: amqp://localhost }'   | bus.url@local       | Toa's per-environment variant 'url@local' (url in the environment local) is not read | a toa4j context file has one value for each key
          'outbox: { redis: redis://localhost, retention: 86400 }'   | outbox.redis        | Toa's outbox.redis is not read        | claims its entries in the storage and needs no Redis; there is none in toa4j
          'outbox: { interval: 5000 }'                               | outbox.interval     | Toa's outbox.interval is not read     | sweeps what is left every second; there is none in toa4j
          """)
  void loadContext_toaKeyToa4jDoesNotRead_isRefusedWithItsEquivalent(
      String line, String yamlPath, String problem, String equivalent) {
    write(dir, FILE, "name: shop\n" + line + "\n");

    ManifestException e = Fixtures.refused(() -> Manifests.loadContext(dir), FILE, yamlPath);

    assertThat(e).hasMessageContainingAll(problem, equivalent);
  }
}
