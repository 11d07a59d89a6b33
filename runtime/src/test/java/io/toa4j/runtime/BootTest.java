package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.manifest.ManifestException;
import io.toa4j.manifest.Manifests;
import io.toa4j.tck.contexts.Contexts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A context that does not fit refuses to start, says why and where, and changes nothing. */
class BootTest {
  static final String WALLETS = "components/billing.wallets/";
  static final String MANIFEST = WALLETS + "manifest.toa.yaml";

  @TempDir Path directory;

  private Path shop() {
    return Shop.copyTo(directory);
  }

  @Test
  void boot_manifestWithUnknownKey_isRefusedNamingFileAndKey() {
    Path context = shop();
    Contexts.edit(context, MANIFEST, "operations:\n", "colour: blue\noperations:\n");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("manifest.toa.yaml")
        .hasMessageContaining("colour");
    assertNoState(context);
  }

  @Test
  void boot_manifestValueOfWrongType_isRefusedAtItsPath() {
    Path context = shop();
    Contexts.edit(
        context,
        MANIFEST,
        "not applied again\n    query: true",
        "not applied again\n    query: often");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(ManifestException.class)
        .hasMessageContaining("operations.credit.query");
  }

  @Test
  void boot_declaredOperationWithoutClass_isRefusedNamingTheFileToCreate() throws IOException {
    Path context = shop();
    Files.delete(context.resolve(WALLETS + "operations/Debit.java"));

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("operations.debit")
        .hasMessageContaining("operations/Debit.java");
    assertNoState(context);
  }

  @Test
  void boot_inputRecordWithAFieldTheSchemaLacks_isRefused() {
    Path context = shop();
    Contexts.edit(
        context,
        WALLETS + "operations/Credit.java",
        "record Input(long amount, String type, String ref)",
        "record Input(long amount, String type, String ref, String note)");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("operations.credit.input")
        .hasMessageContaining("'note' is not a property of the schema");
  }

  @Test
  void boot_inputRecordOfTheWrongType_isRefused() {
    Path context = shop();
    Contexts.edit(
        context,
        WALLETS + "operations/Credit.java",
        "record Input(long amount, String type, String ref)",
        "record Input(long amount, String type, long ref)");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("operations.credit.input")
        .hasMessageContaining("'ref' is a long, which cannot hold the schema's \"string\"");
  }

  @Test
  void boot_inputRecordMissingASchemaProperty_isRefused() {
    Path context = shop();
    Contexts.edit(
        context,
        WALLETS + "operations/Credit.java",
        "record Input(long amount, String type, String ref)",
        "record Input(long amount, String ref)");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("property 'type' of the schema has no member");
  }

  @Test
  void boot_entityFieldTheEntityLacks_isRefused() {
    Path context = shop();
    Contexts.edit(
        context,
        WALLETS + "Wallet.java",
        "  public long balance;\n",
        "  public long balance;\n  public String nickname;\n");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("entity.properties")
        .hasMessageContaining("'nickname' is not a property of the schema");
  }

  @Test
  void boot_sourceThatDoesNotCompile_isRefusedWithFileAndLine() {
    Path context = shop();
    Contexts.edit(
        context,
        WALLETS + "operations/Credit.java",
        "entry.balance += input.amount();",
        "entry.balance += input.amount() +;");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("does not compile")
        .hasMessageContaining("Credit.java:14");
    assertNoState(context);
  }

  @Test
  void boot_operationPresentOnlyAsAClass_isAnOperation_takingNoInput() {
    Path context = shop();
    Contexts.write(
        context,
        WALLETS + "operations/Freeze.java",
        "package billing.wallets.operations;\n"
            + "public class Freeze implements io.toa4j.api.Effect<Void> {\n"
            + "  public Object effect(Void input) { return \"frozen\"; }\n"
            + "}\n");

    try (Toa app = Toa.builder().directory(context).build()) {
      assertThat(app.call("billing.wallets.freeze", Request.empty()))
          .isEqualTo(new Reply.Output(java.util.Optional.of("frozen")));
      assertThatThrownBy(
              () -> app.call("billing.wallets.freeze", Request.input(Map.of("now", true))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
          .hasMessageContaining("takes no input");
    }
  }

  @Test
  void boot_operationPresentOnlyAsAClassTakingInput_isRefusedSayingToDeclareIt() {
    Path context = shop();
    Contexts.write(
        context,
        WALLETS + "operations/Freeze.java",
        "package billing.wallets.operations;\n"
            + "public class Freeze implements io.toa4j.api.Effect<Freeze.Input> {\n"
            + "  public record Input(boolean now) {}\n"
            + "  public Object effect(Input input) { return null; }\n"
            + "}\n");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContainingAll(
            "Freeze.java",
            "declares no input",
            "takes Input",
            "declare its input schema in the manifest");
    assertNoState(context);
  }

  @Test
  void boot_classNamedAfterAGenericOperation_isRefused() {
    Path context = shop();
    Contexts.write(
        context,
        WALLETS + "operations/Observe.java",
        "package billing.wallets.operations;\n"
            + "public class Observe implements io.toa4j.api.Effect<Void> {\n"
            + "  public Object effect(Void input) { return null; }\n"
            + "}\n");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(StartupException.class)
        .hasMessageContainingAll(
            "observe is given to every entity and runs no class of its own", "Observe");
  }

  @Test
  void boot_declaredTypeDisagreesWithTheClass_isRefused() {
    Path context = shop();
    Contexts.edit(
        context, MANIFEST, "  credit:\n    concurrency: retry", "  credit:\n    type: effect");

    assertThatThrownBy(() -> Toa.builder().directory(context).build())
        .isInstanceOf(RuntimeException.class)
        .hasMessageContaining("operations.credit");
  }

  @Test
  void boot_twiceWithUnchangedSources_compilesOnce_andAnEditRecompiles() throws IOException {
    Path context = shop();
    Toa.builder().directory(context).build().close();
    List<Path> first = cached(context);

    Toa.builder().directory(context).build().close();
    assertThat(cached(context)).isEqualTo(first);

    Contexts.edit(
        context,
        WALLETS + "operations/Credit.java",
        "entry.balance += input.amount();",
        "entry.balance += 2 * input.amount();");
    try (Toa shop = Toa.builder().directory(context).build()) {
      assertThat(cached(context)).hasSize(first.size() + 1);
      Map<String, Object> record =
          Shop.output(
              shop.call("billing.wallets.credit", Request.of(Shop.WALLET, Shop.credit(5, "x"))));
      assertThat(record).containsEntry("balance", 10L);
    }
  }

  @Test
  void componentCode_closed_loadsNoClassAgain_andKeepsThoseLoaded() throws Exception {
    Path context = shop();
    ComponentCode code =
        ComponentCode.load(
            Manifests.loadComponent(context.resolve(WALLETS)), directory.resolve("classes"));
    Class<?> credit = code.find("operations", "Credit").orElseThrow();

    code.close();

    assertThat(code.find("operations", "Debit"))
        .as("a class not loaded before the close")
        .isEmpty();
    assertThat(credit.getDeclaredConstructor().newInstance())
        .as("a class loaded before it")
        .isNotNull();
  }

  private static List<Path> cached(Path context) throws IOException {
    try (Stream<Path> dirs = Files.list(context.resolve(".toa/classes/billing.wallets"))) {
      return dirs.sorted().toList();
    }
  }

  /** A refused boot leaves no record store behind. */
  private static void assertNoState(Path context) {
    Path storage = context.resolve(".toa/storage");
    if (!Files.exists(storage)) return;
    try (Stream<Path> files = Files.list(storage)) {
      assertThat(files.filter(f -> f.toString().endsWith(".db"))).isEmpty();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
