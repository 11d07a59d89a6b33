package io.toa4j.manifest;

import java.nio.file.Path;
import java.util.Objects;

/** Loads contexts and manifests. Stateless and thread-safe. */
public final class Manifests {
  private Manifests() {}

  /**
   * Loads {@code context.toa.yaml} from the folder and every component it finds.
   *
   * <p>Components are the folders matched by the context's {@code components} glob patterns
   * (default {@code components/*}), hidden folders skipped; each must hold a {@code
   * manifest.toa.yaml}, no two may share a label, and they are answered sorted by label. Paths in
   * the model are absolute and normalized.
   *
   * @throws ManifestException when a file is missing, is not YAML, or does not fit
   */
  public static ContextManifest loadContext(Path directory) {
    return ContextReader.read(Objects.requireNonNull(directory, "directory"));
  }

  /**
   * Loads a component's {@code manifest.toa.yaml} from its folder.
   *
   * <p>The namespace and name default to the folder's name ({@code billing.wallets}, or {@code
   * wallets} in {@code default}); every schema fragment is checked against JSON Schema draft
   * 2020-12 and compiled; operations with a declared type are checked against its rules.
   *
   * @throws ManifestException when the file is missing, is not YAML, or does not fit
   */
  public static ComponentManifest loadComponent(Path directory) {
    return ComponentReader.read(Objects.requireNonNull(directory, "directory"));
  }

  /**
   * Reads a component's manifest from its text, for a component that has no folder: its manifest is
   * on the class path, or written in code. Its classes are found on the class path under the
   * package {@code namespace.name}.
   *
   * @param text the manifest, as {@code manifest.toa.yaml} would hold it
   * @param label {@code namespace.name} (or {@code name} in {@code default}), used when the text
   *     declares no namespace or name
   * @param origin names the text in messages, such as {@code
   *     classpath:billing/wallets/manifest.toa.yaml}
   * @throws ManifestException when the text is not YAML or does not fit
   */
  public static ComponentManifest readComponent(String text, String label, String origin) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(origin, "origin");
    return ComponentReader.read(text, label, origin);
  }

  /**
   * Checks an operation whose type the runtime inferred from its class against that type's rules:
   * {@code concurrency} only on transitions, {@code once} only on transitions and assignments,
   * transitions, observations and assignments only in a component with an entity, and no {@code
   * query: true} on a computation. When the manifest also declares a type, the two must agree.
   *
   * @param decl the operation as declared
   * @param hasEntity whether the operation's component declares an entity
   * @param inferred the type its class implements
   * @throws ManifestException at {@code decl.path()} when the declaration does not fit the type
   */
  public static void checkInferredType(
      OperationDeclaration decl, boolean hasEntity, OperationType inferred) {
    Objects.requireNonNull(decl, "decl");
    Objects.requireNonNull(inferred, "inferred");
    decl.type()
        .filter(declared -> declared != inferred)
        .ifPresent(
            declared -> {
              throw new ManifestException(
                  decl.path(),
                  "the manifest declares type: "
                      + declared.yamlName()
                      + ", but the class of "
                      + decl.name()
                      + " is "
                      + OperationRules.withArticle(inferred)
                      + "; make the two agree, or leave type out to infer it from the class");
            });
    OperationRules.check(decl, hasEntity, inferred, true);
  }
}
