package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every refusal names the file and the YAML path (checked by {@link Fixtures#refused}). */
class LoadComponentRefusalTest {
  private static final String FILE = "manifest.toa.yaml";

  @TempDir Path dir;

  private ManifestException refused(String manifest, String yamlPath) {
    return Fixtures.refused(() -> component(dir, "billing.wallets", manifest), FILE, yamlPath);
  }

  /** The seed's billing.wallets with one change. */
  private ManifestException refusedWallets(String from, String to, String yamlPath) {
    String manifest = Fixtures.WALLETS.replace(from, to);
    assertThat(manifest).as("the fixture changed").isNotEqualTo(Fixtures.WALLETS);
    return refused(manifest, yamlPath);
  }

  @Test
  void loadComponent_unknownTopLevelKey_isRefusedListingTheAllowedKeys() {
    ManifestException e = refused("name: wallets\ncolour: red\n", "colour");

    assertThat(e)
        .hasMessageContainingAll(
            "unknown key 'colour'",
            "namespace, name, entity, operations, events, receivers, exposition");
  }

  @Test
  void loadComponent_toaKeysNotRead_areRefusedSayingWhatToaHasInstead() {
    assertThat(refused("name: wallets\norigins:\n  bank: https://bank.example\n", "origins"))
        .hasMessageContainingAll("Toa's 'origins' is not read", "under that system's id");
    assertThat(refused("name: wallets\nprototype: ../base\n", "prototype"))
        .hasMessageContaining("each manifest declares its own operations");
    assertThat(refused("name: wallets\nbridge: node\n", "bridge"))
        .hasMessageContaining("Java classes under operations/");
    for (String key :
        java.util.List.of("extensions", "storages", "stash", "realtime", "queues", "build")) {
      assertThat(refused("name: wallets\n" + key + ": {}\n", key))
          .hasMessageContaining("Toa's '" + key + "' is not read");
    }
    assertThat(refused("name: wallets\nstate: { a: 1 }\n", "state"))
        .hasMessageContainingAll("state takes no settings", "state: ~");
  }

  @Test
  void loadComponent_unknownOperationKey_isRefusedListingTheAllowedKeys() {
    ManifestException e =
        refusedWallets("once: true", "once: true\n    retries: 3", "operations.credit.retries");

    assertThat(e)
        .hasMessageContainingAll(
            "unknown key 'retries'", "type, concurrency, query, once, input, output, errors");
  }

  @Test
  void loadComponent_queryNotABoolean_isRefusedSayingWhatToWrite() {
    ManifestException e =
        refusedWallets(
            "query: true\n    input", "query: yes please\n    input", "operations.credit.query");

    assertThat(e)
        .hasMessageContainingAll(
            "expected true or false", "found the string 'yes please'", "write query: true");
  }

  @Test
  void loadComponent_onceUnder600_isRefusedAtItsPath() {
    ManifestException e = refusedWallets("once: true", "once: 300", "operations.credit.once");

    assertThat(e)
        .hasMessageContainingAll(
            "300 is under 600 seconds",
            "state 600 or more, or true to use the context's inbox.retention");
  }

  @Test
  void loadComponent_onceRememberingLessThanItAnswers_isRefusedAtItsPath() {
    ManifestException e =
        refusedWallets(
            "once: true",
            "once: { retention: 7200, remember: 3600 }",
            "operations.credit.once.remember");

    assertThat(e)
        .hasMessageContainingAll("3600 is shorter than retention (7200)", "state 7200 or more");
  }

  @Test
  void loadComponent_onceWindowUnder600_isRefusedAtItsPath() {
    ManifestException e =
        refusedWallets("once: true", "once: { remember: 60 }", "operations.credit.once.remember");

    assertThat(e)
        .hasMessageContainingAll(
            "60 is under 600 seconds", "leave remember out to use the context's inbox.remember");
  }

  @Test
  void loadComponent_onceUnknownWindow_isRefused() {
    ManifestException e =
        refusedWallets("once: true", "once: { ttl: 600 }", "operations.credit.once.ttl");

    assertThat(e).hasMessageContainingAll("unknown key 'ttl'", "retention, remember");
  }

  private static final String BOOKS =
      "entity: { properties: { title: { type: string } } }\noperations:\n";

  @Test
  void loadComponent_forwardToAnythingButAGenericOperation_isRefusedListingThem() {
    ManifestException e =
        refused(BOOKS + "  create: { forward: credit }\n", "operations.create.forward");

    assertThat(e)
        .hasMessageContainingAll(
            "'credit' is not a generic operation", "transit, observe, enumerate, assign");
  }

  @Test
  void loadComponent_forwardWithoutAnEntity_isRefused() {
    ManifestException e =
        refused("operations:\n  create: { forward: transit }\n", "operations.create.forward");

    assertThat(e).hasMessageContainingAll("transit works on the entity", "declares none");
  }

  @Test
  void loadComponent_forwardWithAnotherType_isRefusedAtType() {
    ManifestException e =
        refused(BOOKS + "  list: { forward: observe, type: transition }\n", "operations.list.type");

    assertThat(e)
        .hasMessageContainingAll("observe is an observation, not a transition", "leave type out");
  }

  @Test
  void loadComponent_assignRedeclared_isRefused() {
    ManifestException e =
        refused(BOOKS + "  assign: { input: { type: object } }\n", "operations.assign");

    assertThat(e).hasMessageContainingAll("'assign' is given to every entity", "forward: assign");
  }

  @Test
  void loadComponent_observeRedeclaredWithMoreThanSchemas_isRefused() {
    ManifestException e =
        refused(BOOKS + "  observe: { concurrency: retry }\n", "operations.observe.concurrency");

    assertThat(e).hasMessageContainingAll("unknown key 'concurrency'", "write { input, output }");
  }

  @Test
  void loadComponent_transitInputNamingAPropertyTheEntityLacks_isRefusedAtIt() {
    ManifestException e =
        refused(
            BOOKS
                + "  transit: { input: { type: object, properties: { colour: { type: string } } } }\n",
            "operations.transit.input.properties.colour");

    assertThat(e)
        .hasMessageContainingAll(
            "'colour' is not a property of the entity", "transit merges its input");
  }

  @Test
  void loadComponent_onceNeitherTrueNorSeconds_isRefused() {
    ManifestException e = refusedWallets("once: true", "once: always", "operations.credit.once");

    assertThat(e).hasMessageContainingAll("found the string 'always'", "write once: true");
  }

  @Test
  void loadComponent_externalOnAnythingButAnEffect_orMalformed_isRefused() {
    assertThat(
            refused(
                "operations: { compute: { type: computation, external: true } }",
                "operations.compute.external"))
        .hasMessageContainingAll("external applies to effects only", "compute is a computation");
    assertThat(
            refused(
                "operations: { charge: { type: effect, external: { unknown: 0 } } }",
                "operations.charge.external.unknown"))
        .hasMessageContainingAll("0 is out of range", "from 1 to 100");
    assertThat(
            refused(
                "operations: { charge: { type: effect, external: { tries: 2 } } }",
                "operations.charge.external.tries"))
        .hasMessageContaining("unknown key 'tries'");
  }

  @Test
  void loadComponent_external_isReadWithItsAllowance() {
    ComponentManifest manifest =
        Fixtures.component(
            dir,
            "billing.payments",
            "operations: { charge: { type: effect, external: true }, ship: { type: effect, external: { unknown: 5 } }, mail: { type: effect } }");
    assertThat(manifest.operations().get("charge").external())
        .hasValue(OperationDeclaration.UNKNOWN_OUTCOMES);
    assertThat(manifest.operations().get("ship").external()).hasValue(5);
    assertThat(manifest.operations().get("mail").external()).isEmpty();
  }

  @Test
  void loadComponent_onceOnAnEffect_isRefusedAtOnce() {
    ManifestException e =
        refused("operations: { notify: { type: effect, once: true } }", "operations.notify.once");

    assertThat(e)
        .hasMessageContainingAll(
            "once applies to transitions and assignments only",
            "notify is an effect",
            "remove once");
  }

  @Test
  void loadComponent_concurrencyOnAnObservation_isRefusedAtConcurrency() {
    String manifest =
        """
        entity: { properties: { size: { type: integer } } }
        operations: { look: { type: observation, concurrency: retry } }
        """;

    ManifestException e = refused(manifest, "operations.look.concurrency");

    assertThat(e)
        .hasMessageContainingAll(
            "concurrency applies to transitions only",
            "look is an observation",
            "remove concurrency");
  }

  @Test
  void loadComponent_transitionWithoutEntity_isRefusedAtType() {
    ManifestException e =
        refused("operations: { credit: { type: transition } }", "operations.credit.type");

    assertThat(e)
        .hasMessageContainingAll(
            "credit is a transition, which needs an entity", "declare an entity");
  }

  @Test
  void loadComponent_queryTrueOnAComputation_isRefusedAtQuery() {
    ManifestException e =
        refused("operations: { sum: { type: computation, query: true } }", "operations.sum.query");

    assertThat(e).hasMessageContainingAll("sum is a computation", "remove query");
  }

  @Test
  void loadComponent_genericOperationRedeclaredAsAnOperationOfItsOwn_isRefused() {
    ManifestException e = refusedWallets("  debit:", "  observe:", "operations.observe.query");

    assertThat(e)
        .hasMessageContainingAll(
            "unknown key 'query'", "re-declaring observe gives it an input or an output schema");
  }

  @Test
  void loadComponent_systemPropertyDeclared_isRefused() {
    ManifestException e =
        refusedWallets(
            "    paid: {",
            "    VERSION: { type: integer }\n    paid: {",
            "entity.properties.VERSION");

    assertThat(e)
        .hasMessageContaining(
            "System property 'VERSION' cannot be declared; it is owned by the runtime");
  }

  @Test
  void loadComponent_propertyNamedLikeAJavaKeyword_isRefused() {
    ManifestException e =
        refusedWallets(
            "    paid: {", "    class: { type: string }\n    paid: {", "entity.properties.class");

    assertThat(e).hasMessageContainingAll("'class' is a Java keyword", "choose another name");
  }

  @Test
  void loadComponent_unknownEntityKey_isRefusedListingTheAllowedKeys() {
    ManifestException e =
        refusedWallets(
            "  associated: true",
            "  associated: true\n  additionalProperties: true",
            "entity.additionalProperties");

    assertThat(e)
        .hasMessageContainingAll(
            "unknown key 'additionalProperties'", "properties, required, blank, associated");
  }

  @Test
  void loadComponent_blankValueBreakingItsSchema_isRefusedAtTheValue() {
    ManifestException e =
        refusedWallets("blank: { balance: 0", "blank: { balance: -5", "entity.blank.balance");

    assertThat(e)
        .hasMessageContainingAll("does not fit the property's schema", "minimum value of 0");
  }

  @Test
  void loadComponent_blankOfAnUndeclaredProperty_isRefused() {
    ManifestException e =
        refusedWallets(
            "blank: { balance: 0", "blank: { colour: red, balance: 0", "entity.blank.colour");

    assertThat(e).hasMessageContainingAll("'colour' is not a declared property", "balance, paid");
  }

  @Test
  void loadComponent_requiredUndeclaredProperty_isRefused() {
    ManifestException e =
        refusedWallets("required: [balance]", "required: [balance, owner]", "entity.required[1]");

    assertThat(e).hasMessageContaining("'owner' is not a declared property");
  }

  @Test
  void loadComponent_badPropertySchema_isRefusedAtItsYamlPath() {
    ManifestException e =
        refusedWallets(
            "balance: { type: integer",
            "balance: { type: integr",
            "entity.properties.balance.type");

    assertThat(e)
        .hasMessageContainingAll(
            "the string 'integr' is not valid JSON Schema here", "draft 2020-12");
  }

  @Test
  void loadComponent_badInputSchema_isRefusedAtItsYamlPath() {
    ManifestException e =
        refusedWallets(
            "amount: { type: integer, minimum: 1 }\n        type:",
            "amount: { type: integr, minimum: 1 }\n        type:",
            "operations.credit.input.properties.amount.type");

    assertThat(e).hasMessageContaining("the string 'integr' is not valid JSON Schema here");
  }

  @Test
  void loadComponent_schemaWithUnresolvableReference_isRefused() {
    ManifestException e =
        refused(
            "operations: { sum: { input: { $ref: '#/$defs/missing' } } }", "operations.sum.input");

    assertThat(e).hasMessageContainingAll("cannot be compiled as a JSON Schema", "$defs");
  }

  @Test
  void loadComponent_receiverNamingAnUnknownOperation_isRefused() {
    ManifestException e =
        refusedWallets(
            "billing.topups.paid: credit",
            "billing.topups.paid: refill",
            "receivers.billing.topups.paid");

    assertThat(e)
        .hasMessageContainingAll(
            "'refill' is not an operation of this component",
            "credit, debit, observe, enumerate, assign");
  }

  @Test
  void loadComponent_receiverWithAMalformedLabel_isRefused() {
    ManifestException e =
        refusedWallets("billing.topups.paid: credit", "paid: credit", "receivers.paid");

    assertThat(e).hasMessageContainingAll("not an event's label", "namespace.name.event");
  }

  @Test
  void loadComponent_expositionWithAnUnknownMethod_isRefusedAtItsPath() {
    ManifestException e =
        refusedWallets("PUT: credit", "FETCH: credit", "exposition./:id/credits.FETCH");

    assertThat(e)
        .hasMessageContainingAll(
            "unknown key 'FETCH'", "GET, POST, PUT, PATCH, DELETE", "auth:role, auth:anonymous");
  }

  @Test
  void loadComponent_expositionMethodNamingAnUnknownOperation_isRefused() {
    ManifestException e =
        refusedWallets("PUT: credit", "PUT: refill", "exposition./:id/credits.PUT");

    assertThat(e).hasMessageContaining("'refill' is not an operation of this component");
  }

  @Test
  void loadComponent_expositionAuthIdNotARouteVariable_isRefused() {
    ManifestException e =
        refusedWallets(
            "auth:role: store:wallets", "auth:id: owner", "exposition./:id/credits.auth:id");

    assertThat(e)
        .hasMessageContainingAll(
            "'owner' is not a variable of the enclosing routes", "enclosing routes: id");
  }

  @Test
  void loadComponent_expositionMethodAsEndpointAndQuery_isRefusedWhereItDoesNotFit() {
    assertThat(
            refusedWallets(
                "PUT: credit", "PUT: { query: { sort: balance } }", "exposition./:id/credits.PUT"))
        .hasMessageContaining("'endpoint' is missing");
    assertThat(
            refusedWallets(
                "PUT: credit",
                "PUT: { endpoint: credit, colour: red }",
                "exposition./:id/credits.PUT.colour"))
        .hasMessageContainingAll("unknown key 'colour'", "endpoint, query");
    assertThat(
            refusedWallets(
                "PUT: credit",
                "POST: { endpoint: credit, query: { sort: balance } }",
                "exposition./:id/credits.POST.query"))
        .hasMessageContaining("POST creates");
    assertThat(
            refusedWallets(
                "PUT: credit",
                "PUT: { endpoint: credit, query: { projection: [id] } }",
                "exposition./:id/credits.PUT.query.projection"))
        .hasMessageContaining("toa4j has no projection; io:output");
    assertThat(
            refusedWallets(
                "PUT: credit",
                "PUT: { endpoint: credit, query: { limit: [5, 1] } }",
                "exposition./:id/credits.PUT.query.limit"))
        .hasMessageContaining("lower bound 5 is above its upper bound 1");
    assertThat(
            refusedWallets(
                "PUT: credit",
                "PUT: { endpoint: credit, query: { omit: { value: 9, range: [0, 5] } } }",
                "exposition./:id/credits.PUT.query.omit"))
        .hasMessageContaining("omit's value 9 is outside its range");
    assertThat(
            refusedWallets(
                "PUT: credit",
                "PUT: { endpoint: credit, query: { limit: 0 } }",
                "exposition./:id/credits.PUT.query.limit"))
        .hasMessageContaining("limit is at least 1");
    assertThat(
            refusedWallets(
                "PUT: credit",
                "PUT: { endpoint: credit, query: { parameters: [limit] } }",
                "exposition./:id/credits.PUT.query.parameters[0]"))
        .hasMessageContaining("'limit' is a query key of its own");
    assertThat(
            refusedWallets(
                "PUT: credit",
                "PUT: { endpoint: credit, auth:anyone: yes }",
                "exposition./:id/credits.PUT.auth:anyone"))
        .hasMessageContaining("auth:anyone: true");
  }

  @Test
  void loadComponent_expositionMalformedRoute_isRefused() {
    ManifestException e =
        refusedWallets("/:id/credits:", "/:id//credits:", "exposition./:id//credits");

    assertThat(e).hasMessageContainingAll("is not a route segment", "such as :id");
  }

  @Test
  void loadComponent_duplicateYamlKey_isRefusedWithItsPathAndLine() {
    String manifest = "operations:\n  credit: { type: effect }\n  credit: { type: effect }\n";

    ManifestException e = refused(manifest, "operations.credit");

    assertThat(e).hasMessageContainingAll("the key 'credit' appears twice", "line 3", "keep one");
  }

  @Test
  void loadComponent_yamlSyntaxError_isRefusedWithItsLine() {
    ManifestException e = refused("name: wallets\noperations: { credit: [1, 2\nevents: {}\n", "");

    assertThat(e).hasMessageContainingAll("not valid YAML", "at line 3, column 7", "correct");
  }

  @Test
  void loadComponent_missingManifest_isRefusedNamingTheExpectedFile() {
    Path folder = dir.resolve("billing.wallets");
    Fixtures.write(folder, "operations/Credit.java", "class Credit {}");

    ManifestException e = Fixtures.refused(() -> Manifests.loadComponent(folder), FILE, "");

    assertThat(e.location().file()).isEqualTo(folder.toAbsolutePath().resolve(FILE));
    assertThat(e)
        .hasMessageContainingAll("billing.wallets", "a component folder needs a manifest.toa.yaml");
  }

  @Test
  void loadComponent_badDeclaredName_isRefusedAtName() {
    ManifestException e = refused("name: 9lives", "name");

    assertThat(e)
        .hasMessageContainingAll(
            "'9lives' is not a valid namespace or name",
            "a letter followed by up to 31 letters or digits");
  }

  @Test
  void loadComponent_folderGivingNoValidName_isRefused() {
    ManifestException e =
        Fixtures.refused(() -> component(dir, "my-wallets", "events: { paid: }"), FILE, "");

    assertThat(e).hasMessageContainingAll("no name is declared", "'my-wallets'", "declare name:");
  }

  @Test
  void loadComponent_systemNamespace_isRefused() {
    ManifestException e = refused("namespace: system", "namespace");

    assertThat(e).hasMessageContaining("'system' is a namespace reserved for the runtime");
  }

  @Test
  void loadComponent_duplicateErrorCode_isRefused() {
    ManifestException e =
        refusedWallets(
            "errors: [INSUFFICIENT_FUNDS]",
            "errors: [INSUFFICIENT_FUNDS, INSUFFICIENT_FUNDS]",
            "operations.debit.errors[1]");

    assertThat(e).hasMessageContaining("INSUFFICIENT_FUNDS is listed twice");
  }
}
