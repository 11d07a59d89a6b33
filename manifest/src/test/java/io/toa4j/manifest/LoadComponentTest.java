package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadComponentTest {
  @TempDir Path dir;

  @Test
  void loadComponent_seedWallets_answersTheDeclaredModel() {
    ComponentManifest wallets = component(dir, "billing.wallets", Fixtures.WALLETS);

    assertThat(wallets.directory()).isEqualTo(dir.resolve("billing.wallets").toAbsolutePath());
    assertThat(wallets.file()).isEqualTo(wallets.directory().resolve("manifest.toa.yaml"));
    assertThat(wallets.label()).isEqualTo("billing.wallets");
    assertThat(wallets.events()).isEmpty();
    assertThat(wallets.receivers())
        .containsExactly(
            new ReceiverDeclaration(
                "billing.topups.paid",
                "credit",
                new Location(wallets.file(), "receivers.billing.topups.paid")));
    assertThat(wallets.exposition())
        .hasValueSatisfying(
            tree -> {
              assertThat(tree.at("/~1:id~1credits/PUT").asText()).isEqualTo("credit");
              assertThat(tree.at("/~1:id~1credits/auth:role").asText()).isEqualTo("store:wallets");
            });
  }

  @Test
  void readComponent_manifestText_answersTheSameModelUnderItsLabel() {
    ComponentManifest fromFolder = component(dir, "billing.wallets", Fixtures.WALLETS);

    ComponentManifest fromText =
        Manifests.readComponent(
            Fixtures.WALLETS, "billing.wallets", "classpath:billing/wallets/manifest.toa.yaml");

    assertThat(fromText.label()).isEqualTo("billing.wallets");
    assertThat(fromText.operations().keySet()).isEqualTo(fromFolder.operations().keySet());
    assertThat(fromText.entity().orElseThrow().associated()).isTrue();
    assertThat(fromText.file()).hasToString("classpath:billing/wallets/manifest.toa.yaml");
  }

  @Test
  void readComponent_textThatDoesNotFit_isRefusedNamingItsOrigin() {
    ManifestException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            ManifestException.class,
            () ->
                Manifests.readComponent(
                    "operations: { credit: { once: 5 } }",
                    "billing.wallets",
                    "code:billing.wallets"));

    assertThat(e.getMessage()).startsWith("code:billing.wallets at operations.credit.once");
  }

  @Test
  void loadComponent_seedWallets_answersTheEntity() {
    EntityDeclaration entity =
        component(dir, "billing.wallets", Fixtures.WALLETS).entity().orElseThrow();

    assertThat(entity.associated()).isTrue();
    assertThat(entity.properties().propertyNames()).containsExactly("balance", "paid");
    assertThat(entity.required()).containsExactly("balance");
    assertThat(entity.blank().toString()).isEqualTo("{\"balance\":0,\"paid\":{}}");
    assertThat(entity.schema().source().toString())
        .isEqualTo(
            "{\"type\":\"object\",\"properties\":{\"balance\":{\"type\":\"integer\",\"minimum\":0},"
                + "\"paid\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}},"
                + "\"required\":[\"balance\"],\"additionalProperties\":false}");
    assertThat(entity.changeset().source().has("required")).isFalse();
    assertThat(entity.changeset().source().get("additionalProperties").asBoolean()).isFalse();
  }

  @Test
  void loadComponent_seedWallets_answersOperationsInDeclaredOrder() {
    ComponentManifest wallets = component(dir, "billing.wallets", Fixtures.WALLETS);
    OperationDeclaration credit = wallets.operations().get("credit");
    OperationDeclaration debit = wallets.operations().get("debit");

    assertThat(wallets.operations().keySet()).containsExactly("credit", "debit");
    assertThat(credit.path()).isEqualTo(new Location(wallets.file(), "operations.credit"));
    assertThat(credit.type()).isEmpty();
    assertThat(credit.concurrency()).isEqualTo(Concurrency.RETRY);
    assertThat(credit.query()).isEqualTo(QueryRule.REQUIRED);
    assertThat(credit.once()).contains(new Once(OptionalLong.empty()));
    assertThat(credit.input().orElseThrow().source().at("/properties/type/enum/2").asText())
        .isEqualTo("goodwill");
    assertThat(credit.output()).isEmpty();
    assertThat(credit.errors()).isEmpty();
    assertThat(debit.concurrency()).isEqualTo(Concurrency.NONE);
    assertThat(debit.once()).isEmpty();
    assertThat(debit.errors()).containsExactly("INSUFFICIENT_FUNDS");
  }

  @Test
  void loadComponent_seedTopups_answersTheDeclaredModel() {
    ComponentManifest topups = component(dir, "topups-folder", Fixtures.TOPUPS);
    OperationDeclaration record = topups.operations().get("record");

    assertThat(topups.namespace()).isEqualTo("billing");
    assertThat(topups.name()).isEqualTo("topups");
    assertThat(topups.entity().orElseThrow().associated()).isTrue();
    assertThat(topups.entity().orElseThrow().required()).isEmpty();
    assertThat(topups.entity().orElseThrow().blank().isEmpty()).isTrue();
    assertThat(record.concurrency()).isEqualTo(Concurrency.RETRY);
    assertThat(record.query()).isEqualTo(QueryRule.REQUIRED);
    assertThat(record.once()).isEmpty();
    assertThat(topups.receivers()).isEmpty();
    assertThat(topups.exposition()).isEmpty();
  }

  @Test
  void loadComponent_folderWithoutNamespace_isInTheDefaultNamespace() {
    ComponentManifest wallets = component(dir, "wallets", "events: { paid: }");

    assertThat(wallets.namespace()).isEqualTo("default");
    assertThat(wallets.name()).isEqualTo("wallets");
    assertThat(wallets.entity()).isEmpty();
    assertThat(wallets.events()).containsExactly("paid");
  }

  @Test
  void loadComponent_declaredName_winsOverTheFolders() {
    ComponentManifest purses = component(dir, "billing.wallets", "name: purses");

    assertThat(purses.label()).isEqualTo("billing.purses");
  }

  @Test
  void loadComponent_emptyFile_answersAComponentNamedAfterItsFolder() {
    ComponentManifest empty = component(dir, "billing.empty", "");

    assertThat(empty.label()).isEqualTo("billing.empty");
    assertThat(empty.operations()).isEmpty();
  }

  @Test
  void loadComponent_onceInSeconds_answersTheRetention() {
    ComponentManifest wallets =
        component(dir, "wallets", Fixtures.WALLETS.replace("once: true", "once: 7200"));

    assertThat(wallets.operations().get("credit").once()).contains(new Once(OptionalLong.of(7200)));
  }

  @Test
  void loadComponent_onceWithItsWindows_answersBoth() {
    ComponentManifest wallets =
        component(
            dir,
            "wallets",
            Fixtures.WALLETS.replace("once: true", "once: { retention: 7200, remember: 86400 }"));
    ComponentManifest remembering =
        component(
            dir, "other", Fixtures.WALLETS.replace("once: true", "once: { remember: 86400 }"));

    assertThat(wallets.operations().get("credit").once())
        .contains(new Once(OptionalLong.of(7200), OptionalLong.of(86400)));
    assertThat(remembering.operations().get("credit").once())
        .contains(new Once(OptionalLong.empty(), OptionalLong.of(86400)));
  }

  @Test
  void loadComponent_genericOperations_asToaWritesThem() {
    ComponentManifest books =
        component(
            dir,
            "books",
            """
        entity: { properties: { title: { type: string } } }
        operations:
          transit: {}
          create: { forward: transit, query: false, input: { type: object, properties: { title: { type: string } } } }
          list: { forward: enumerate }
          observe: { output: { type: object } }
        receivers:
          store.orders.created: transit
        """);

    OperationDeclaration transit = books.operations().get("transit");
    assertThat(transit.forward()).contains("transit");
    assertThat(transit.type()).contains(OperationType.TRANSITION);
    assertThat(transit.query()).isEqualTo(QueryRule.OPTIONAL);
    assertThat(transit.input()).as("the entity's properties, none required").isPresent();
    OperationDeclaration create = books.operations().get("create");
    assertThat(create.forward()).contains("transit");
    assertThat(create.query()).isEqualTo(QueryRule.FORBIDDEN);
    assertThat(books.operations().get("list").type()).contains(OperationType.OBSERVATION);
    assertThat(books.operations().get("list").query()).isEqualTo(QueryRule.OPTIONAL);
    assertThat(books.operations().get("observe").forward()).contains("observe");
    assertThat(books.operations().get("observe").query()).isEqualTo(QueryRule.REQUIRED);
    assertThat(books.operations().get("observe").output()).isPresent();
  }

  @Test
  void loadComponent_receiverNamingAnOperationPresentOnlyAsAClass_loads() {
    Fixtures.write(dir, "books/operations/Stamp.java", "// the runtime binds and checks it");
    String manifest =
        """
        entity: { properties: { title: { type: string } } }
        receivers:
          store.orders.created: stamp
        """;

    ComponentManifest books = component(dir, "books", manifest);

    assertThat(books.operations()).as("found, not declared").doesNotContainKey("stamp");
    assertThat(books.receivers())
        .singleElement()
        .satisfies(r -> assertThat(r.operation()).isEqualTo("stamp"));
    ManifestException refused =
        Fixtures.refused(
            () -> component(dir, "other", manifest),
            "manifest.toa.yaml",
            "receivers.store.orders.created");
    assertThat(refused).hasMessageContaining("'stamp' is not an operation of this component");
  }

  @Test
  void loadComponent_receiverLongFormWithTwoPartLabel_isInTheDefaultNamespace() {
    String manifest =
        Fixtures.WALLETS.replace(
            "billing.topups.paid: credit", "topups.paid: { operation: observe }");

    ComponentManifest wallets = component(dir, "wallets", manifest);

    assertThat(wallets.receivers().get(0).label()).isEqualTo("default.topups.paid");
    assertThat(wallets.receivers().get(0).operation()).isEqualTo("observe");
  }

  @Test
  void loadComponent_declaredTypes_areKept() {
    ComponentManifest mailer =
        component(
            dir,
            "mailer",
            """
            operations:
              send: { type: effect, query: false, output: { type: string } }
              render: { type: computation }
              ping:
            """);

    assertThat(mailer.operations().get("send").type()).contains(OperationType.EFFECT);
    assertThat(mailer.operations().get("send").query()).isEqualTo(QueryRule.FORBIDDEN);
    assertThat(mailer.operations().get("send").output()).isPresent();
    assertThat(mailer.operations().get("render").type()).contains(OperationType.COMPUTATION);
    assertThat(mailer.operations().get("ping").query()).isEqualTo(QueryRule.OPTIONAL);
  }
}
