package io.toa4j.manifest;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A component's namespace and name: as declared, else from its folder's name ({@code
 * billing.wallets}, or {@code wallets} in the {@code default} namespace).
 */
record ComponentLabel(String namespace, String name) {

  static ComponentLabel of(Declared root, Path folder) {
    String folderName = folder.getFileName() == null ? "" : folder.getFileName().toString();
    int dot = folderName.indexOf('.');
    String folderNamespace =
        dot < 0 ? ComponentReader.DEFAULT_NAMESPACE : folderName.substring(0, dot);
    String folderOwnName = folderName.substring(dot + 1);
    String namespace = part(root, "namespace", folderNamespace, folderName);
    if (namespace.equalsIgnoreCase(ComponentReader.RESERVED_NAMESPACE)) {
      Location at = root.get("namespace").map(Declared::location).orElse(root.location());
      throw new ManifestException(
          at,
          "'"
              + namespace
              + "' is a namespace reserved for the"
              + " runtime; declare another namespace, or rename the folder");
    }
    return new ComponentLabel(namespace, part(root, "name", folderOwnName, folderName));
  }

  /** The declared part, else the folder's, which must then be a valid token. */
  private static String part(Declared root, String key, String fromFolder, String folderName) {
    Optional<Declared> declared = root.get(key);
    if (declared.isPresent()) {
      return declared.get().token(Token.COMPONENT_NAME);
    }
    if (!Token.COMPONENT_NAME.fits(fromFolder)) {
      throw root.refuse(
          "no "
              + key
              + " is declared and the folder '"
              + folderName
              + "' gives none ('"
              + fromFolder
              + "' is not "
              + Token.COMPONENT_NAME.rule()
              + "); declare "
              + key
              + ": <"
              + key
              + ">, or name the folder namespace.name");
    }
    return fromFolder;
  }
}
