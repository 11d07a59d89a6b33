package io.toa4j.manifest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Reads a context's folder: its {@code context.toa.yaml} and every component it finds. */
final class ContextReader {
  static final String FILE = "context.toa.yaml";
  static final List<String> KEYS =
      List.of(
          "name",
          "description",
          "version",
          "components",
          "storage",
          "bus",
          "inbox",
          "outbox",
          "delivery",
          "configuration");
  static final String DEFAULT_COMPONENTS = "components/*";
  private static final String FIX = "write the context's settings as a mapping";

  private ContextReader() {}

  /** The context declared in the folder, with its components sorted by label. */
  static ContextManifest read(Path directory) {
    Path folder = directory.toAbsolutePath().normalize();
    Path file = folder.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      throw new ManifestException(
          new Location(file, ""),
          "there is no "
              + FILE
              + " in "
              + folder
              + "; a "
              + FILE
              + " with name: <app> there starts a context");
    }
    Declared root = toaKeysRefused(YamlFiles.read(file).mapping(FIX)).mapping(KEYS, FIX);
    String name =
        root.require("name", "name the application, such as name: shop").token(Token.CONTEXT_NAME);
    root.get("description").ifPresent(d -> d.text("describe the application in words"));
    root.get("version")
        .filter(v -> !v.node().isString() && !v.node().isNumber())
        .ifPresent(
            v -> {
              throw v.refuse(
                  "expected a version such as 1.2.0, found " + Declared.describe(v.node()));
            });
    EngineDeclaration storage =
        engine(root, "storage", ContextManifest.DEFAULT_STORAGE, "postgres");
    EngineDeclaration bus = engine(root, "bus", ContextManifest.DEFAULT_BUS, "rabbitmq");
    List<ComponentManifest> components = components(folder, patterns(root));
    return new ContextManifest(
        folder,
        file,
        name,
        storage,
        bus,
        inbox(root.get("inbox"), "retention", ContextManifest.DEFAULT_INBOX_RETENTION_SECONDS),
        inbox(root.get("inbox"), "remember", ContextManifest.DEFAULT_INBOX_REMEMBER_SECONDS),
        delays(root.get("delivery")),
        outboxRetention(root.get("outbox")),
        components,
        configuration(root.get("configuration"), components));
  }

  private static final String CONFIGURATION_FIX =
      "give each component's values under its label, such as"
          + " configuration: { billing.wallets: { limit: 100 } }";

  /**
   * {@code configuration}: the values of each component that declares a configuration, under its
   * label ({@code namespace.name}, or {@code name} in the default namespace), checked against its
   * schema at start, when secrets ({@code $NAME}) are read from the environment.
   */
  private static Map<String, ObjectNode> configuration(
      Optional<Declared> declared, List<ComponentManifest> components) {
    if (declared.isEmpty()) {
      return Map.of();
    }
    Map<String, ComponentManifest> byLabel = new HashMap<>();
    components.forEach(c -> byLabel.put(c.label(), c));
    Map<String, ObjectNode> values = new TreeMap<>();
    for (Map.Entry<String, Declared> entry : declared.get().mapping(CONFIGURATION_FIX).entries()) {
      String key = entry.getKey();
      String label = key.contains(".") ? key : ComponentReader.DEFAULT_NAMESPACE + "." + key;
      ComponentManifest component = byLabel.get(label);
      if (component == null || component.configuration().isEmpty()) {
        throw entry
            .getValue()
            .refuse(
                "'"
                    + key
                    + "' names no component of this context that declares a configuration"
                    + (component == null
                        ? " (there is no component " + label + ")"
                        : " (" + label + " declares none)")
                    + "; "
                    + CONFIGURATION_FIX);
      }
      if (values.containsKey(label)) {
        throw entry
            .getValue()
            .refuse("the values of " + label + " are given twice; keep one of them");
      }
      values.put(
          label,
          (ObjectNode)
              entry
                  .getValue()
                  .mapping("write the values of " + key + " as a mapping, such as { limit: 100 }")
                  .node()
                  .deepCopy());
    }
    return Collections.unmodifiableMap(values);
  }

  /**
   * The context, refused at the first key Toa reads and toa4j does not (see {@link
   * ToaContextKeys}), or at the first per-environment variant ({@code key@env}) at any depth.
   */
  private static Declared toaKeysRefused(Declared root) {
    for (Map.Entry<String, Declared> entry : root.entries()) {
      String key = entry.getKey();
      if (!KEYS.contains(key)) {
        Declared at = entry.getValue();
        ToaContextKeys.refusal(key, at.line())
            .ifPresent(
                problem -> {
                  throw at.refuse(problem);
                });
      }
    }
    variantsRefused(root);
    return root;
  }

  private static void variantsRefused(Declared node) {
    if (node.node().isObject()) {
      for (Map.Entry<String, Declared> entry : node.entries()) {
        if (ToaContextKeys.isVariant(entry.getKey())) {
          throw entry
              .getValue()
              .refuse(ToaContextKeys.variant(entry.getKey(), entry.getValue().line()));
        }
        variantsRefused(entry.getValue());
      }
    }
  }

  /**
   * {@code key: name}, or {@code key: { engine: name, url: ..., options: { ... } }}; {@code
   * fallback} when absent. Which engines exist and which options each takes is not known here: the
   * runtime finds the engine by name and the engine checks its options.
   */
  private static EngineDeclaration engine(
      Declared root, String key, String fallback, String example) {
    Optional<Declared> declared = root.get(key);
    Location at = root.location().child(key);
    if (declared.isEmpty()) {
      return new EngineDeclaration(fallback, Map.of(), at);
    }
    String fix =
        "write "
            + key
            + ": "
            + fallback
            + " (the default) or "
            + key
            + ": { engine: "
            + example
            + ", url: <its URL>, options: { <name>: <value> } }";
    Declared node = declared.get();
    if (!node.node().isObject()) {
      return new EngineDeclaration(node.token(Token.ENGINE_NAME), Map.of(), at);
    }
    Declared settings = node.mapping(List.of("engine", "url", "options"), fix);
    String name = settings.require("engine", fix).token(Token.ENGINE_NAME);
    Map<String, String> options = new TreeMap<>();
    Optional<Declared> url = settings.get("url");
    url.ifPresent(u -> options.put("url", u.text(fix)));
    Optional<Declared> more = settings.get("options");
    if (more.isPresent()) {
      String optionsFix =
          "write the engine's options as a mapping of names to values, such as"
              + " options: { prefetch: 32 }";
      for (Map.Entry<String, Declared> option : more.get().mapping(optionsFix).entries()) {
        JsonNode value = option.getValue().node();
        if (!value.isValueNode() || value.isNull()) {
          throw option
              .getValue()
              .refuse(
                  "expected a value (text, number or true/false), found "
                      + Declared.describe(value)
                      + "; "
                      + optionsFix);
        }
        if (url.isPresent() && option.getKey().equals("url")) {
          throw option
              .getValue()
              .refuse("the url is given twice, here and at " + key + ".url; keep one of them");
        }
        options.put(option.getKey(), value.asString());
      }
    }
    return new EngineDeclaration(name, options, at);
  }

  private static List<Long> delays(Optional<Declared> delivery) {
    Optional<Declared> declared =
        delivery.flatMap(
            d ->
                d.mapping(List.of("retries"), "write delivery: { retries: [1, 10, 30, 90] }")
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
    String fix = "write outbox: { retention: <seconds> }";
    outbox
        .map(o -> o.mapping(fix))
        .ifPresent(
            o -> {
              o.get("redis")
                  .ifPresent(
                      redis -> {
                        throw redis.refuse(
                            "Toa's outbox.redis is not read"
                                + redis.line()
                                + ": toa4j's outbox"
                                + " claims its entries in the storage and needs no Redis; there is none in toa4j");
                      });
              o.get("interval")
                  .ifPresent(
                      interval -> {
                        throw interval.refuse(
                            "Toa's outbox.interval is not read"
                                + interval.line()
                                + ": toa4j"
                                + " publishes an entry when it commits and sweeps what is left every second; there is"
                                + " none in toa4j");
                      });
            });
    Optional<Declared> declared =
        outbox.flatMap(o -> o.mapping(List.of("retention"), fix).get("retention"));
    if (declared.isEmpty()) {
      return ContextManifest.DEFAULT_OUTBOX_RETENTION_SECONDS;
    }
    String kept = "state how many seconds published events are kept, 60 or more";
    long seconds = declared.get().integer(kept);
    if (seconds < 60) {
      throw declared.get().refuse(seconds + " is under 60 seconds; " + kept);
    }
    return seconds;
  }

  /** One of {@code inbox}'s windows, in seconds: {@code retention} or {@code remember}. */
  private static long inbox(Optional<Declared> inbox, String key, long fallback) {
    if (inbox.isEmpty()) {
      return fallback;
    }
    Optional<Declared> declared =
        inbox
            .get()
            .mapping(
                List.of("retention", "remember"),
                "write inbox: { retention: <seconds>, remember: <seconds> }")
            .get(key);
    if (declared.isEmpty()) {
      return fallback;
    }
    String fix =
        "state "
            + Once.MINIMUM_SECONDS
            + " seconds or more, or leave "
            + key
            + " out for "
            + fallback;
    long seconds = declared.get().integer(fix);
    if (seconds < Once.MINIMUM_SECONDS) {
      throw declared
          .get()
          .refuse(seconds + " is under " + Once.MINIMUM_SECONDS + " seconds; " + fix);
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
        throw found
            .getValue()
            .refuse(
                "the folder "
                    + component
                    + " matches this pattern but holds"
                    + " no "
                    + ComponentReader.FILE
                    + "; add one, or move the folder out of the pattern");
      }
      ComponentManifest manifest = ComponentReader.read(component);
      ComponentManifest twin = byLabel.putIfAbsent(manifest.label(), manifest);
      if (twin != null) {
        throw new ManifestException(
            new Location(manifest.file(), ""),
            "two components are"
                + " labelled "
                + manifest.label()
                + ": "
                + twin.file()
                + " and "
                + manifest.file()
                + "; give one of them another namespace or name");
      }
      components.add(manifest);
    }
    components.sort(Comparator.comparing(ComponentManifest::label));
    return List.copyOf(components);
  }
}
