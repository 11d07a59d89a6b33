package io.toa4j.manifest;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads a context's folder: its {@code context.toa.yaml} and every component it finds. */
final class ContextReader {
  static final String FILE = "context.toa.yaml";
  static final List<String> KEYS = List.of("name", "components", "storage", "inbox");
  static final List<String> STORAGES = List.of("sqlite", "postgres");
  static final String DEFAULT_COMPONENTS = "components/*";

  private ContextReader() {}

  /** The context declared in the folder, with its components sorted by label. */
  static ContextManifest read(Path directory) {
    Path folder = directory.toAbsolutePath().normalize();
    Path file = folder.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      throw new ManifestException(new Location(file, ""), "there is no " + FILE + " in " + folder
          + "; a " + FILE + " with name: <app> there starts a context");
    }
    Declared root = YamlFiles.read(file).mapping(KEYS, "write the context's settings as a mapping");
    String name = root.require("name", "name the application, such as name: shop")
        .token(Token.CONTEXT_NAME);
    return new ContextManifest(
        folder,
        file,
        name,
        storage(root.get("storage")),
        retention(root.get("inbox")),
        components(folder, patterns(root)));
  }

  private static String storage(Optional<Declared> declared) {
    if (declared.isEmpty()) {
      return STORAGES.get(0);
    }
    String fix = "write storage: sqlite (embedded, the default) or storage: postgres";
    String storage = declared.get().text(fix);
    if (!STORAGES.contains(storage)) {
      throw declared.get().refuse("'" + storage + "' is not a storage; " + fix);
    }
    return storage;
  }

  private static long retention(Optional<Declared> inbox) {
    if (inbox.isEmpty()) {
      return ContextManifest.DEFAULT_INBOX_RETENTION_SECONDS;
    }
    Optional<Declared> declared = inbox.get()
        .mapping(List.of("retention"), "write inbox: { retention: <seconds> }")
        .get("retention");
    if (declared.isEmpty()) {
      return ContextManifest.DEFAULT_INBOX_RETENTION_SECONDS;
    }
    String fix = "state " + Once.MINIMUM_SECONDS + " seconds or more, or leave retention out for "
        + ContextManifest.DEFAULT_INBOX_RETENTION_SECONDS;
    long seconds = declared.get().integer(fix);
    if (seconds < Once.MINIMUM_SECONDS) {
      throw declared.get().refuse(
          seconds + " is under " + Once.MINIMUM_SECONDS + " seconds; " + fix);
    }
    return seconds;
  }

  private static List<Declared> patterns(Declared root) {
    Optional<Declared> declared = root.get("components");
    if (declared.isEmpty()) {
      Location at = root.location().child("components");
      return List.of(new Declared(JsonNodeFactory.instance.textNode(DEFAULT_COMPONENTS), at));
    }
    return declared.get().items("list glob patterns of component folders, such as [components/*]");
  }

  private static List<ComponentManifest> components(Path folder, List<Declared> patterns) {
    List<ComponentManifest> components = new ArrayList<>();
    Map<String, ComponentManifest> byLabel = new HashMap<>();
    for (Map.Entry<Path, Declared> found : ComponentFinder.find(folder, patterns).entrySet()) {
      Path component = found.getKey();
      if (!Files.isRegularFile(component.resolve(ComponentReader.FILE))) {
        throw found.getValue().refuse("the folder " + component + " matches this pattern but holds"
            + " no " + ComponentReader.FILE + "; add one, or move the folder out of the pattern");
      }
      ComponentManifest manifest = ComponentReader.read(component);
      ComponentManifest twin = byLabel.putIfAbsent(manifest.label(), manifest);
      if (twin != null) {
        throw new ManifestException(new Location(manifest.file(), ""), "two components are"
            + " labelled " + manifest.label() + ": " + twin.file() + " and " + manifest.file()
            + "; give one of them another namespace or name");
      }
      components.add(manifest);
    }
    components.sort(Comparator.comparing(ComponentManifest::label));
    return List.copyOf(components);
  }
}
