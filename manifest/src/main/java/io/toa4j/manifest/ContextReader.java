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
  static final List<String> KEYS =
      List.of("name", "components", "storage", "bus", "inbox", "outbox", "delivery");
  static final List<String> STORAGES = List.of("sqlite", "postgres");
  static final List<String> BUSES = List.of("embedded", "rabbitmq");
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
    Engine storage = engine(root.get("storage"), "storage", STORAGES, "a storage");
    Engine bus = engine(root.get("bus"), "bus", BUSES, "a bus");
    return new ContextManifest(
        folder,
        file,
        name,
        storage.name(),
        storage.url(),
        bus.name(),
        bus.url(),
        retention(root.get("inbox")),
        delays(root.get("delivery")),
        outboxRetention(root.get("outbox")),
        components(folder, patterns(root)));
  }

  /** An engine as a context names it: {@code storage: postgres}, or with its URL. */
  private record Engine(String name, Optional<String> url) {}

  /**
   * {@code key: name} or {@code key: { engine: name, url: ... }}; the first of {@code names} when
   * absent.
   */
  private static Engine engine(Optional<Declared> declared, String key, List<String> names, String what) {
    if (declared.isEmpty()) {
      return new Engine(names.get(0), Optional.empty());
    }
    String fix = "write " + key + ": " + names.get(0) + " (the default) or " + key + ": { engine: "
        + names.get(1) + ", url: <its URL> }";
    Declared node = declared.get();
    Declared nameNode = node;
    Optional<String> url = Optional.empty();
    if (node.node().isObject()) {
      Declared settings = node.mapping(List.of("engine", "url"), fix);
      nameNode = settings.require("engine", fix);
      url = settings.get("url").map(u -> u.text(fix));
    }
    String name = nameNode.text(fix);
    if (!names.contains(name)) {
      throw nameNode.refuse("'" + name + "' is not " + what + "; " + fix);
    }
    return new Engine(name, url);
  }

  private static List<Long> delays(Optional<Declared> delivery) {
    Optional<Declared> declared = delivery.flatMap(d -> d
        .mapping(List.of("retries"), "write delivery: { retries: [1, 10, 30, 90] }")
        .get("retries"));
    if (declared.isEmpty()) {
      return ContextManifest.DEFAULT_RETRY_DELAYS_SECONDS;
    }
    String fix = "list the seconds to wait before each retry, such as [1, 10, 30, 90]";
    List<Long> delays = new ArrayList<>();
    for (Declared item : declared.get().items(fix)) {
      long seconds = item.integer(fix);
      if (seconds < 0) {
        throw item.refuse(seconds + " is negative; " + fix);
      }
      delays.add(seconds);
    }
    return List.copyOf(delays);
  }

  private static long outboxRetention(Optional<Declared> outbox) {
    Optional<Declared> declared = outbox.flatMap(o -> o
        .mapping(List.of("retention"), "write outbox: { retention: <seconds> }")
        .get("retention"));
    if (declared.isEmpty()) {
      return ContextManifest.DEFAULT_OUTBOX_RETENTION_SECONDS;
    }
    String fix = "state how many seconds published events are kept, 60 or more";
    long seconds = declared.get().integer(fix);
    if (seconds < 60) {
      throw declared.get().refuse(seconds + " is under 60 seconds; " + fix);
    }
    return seconds;
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
