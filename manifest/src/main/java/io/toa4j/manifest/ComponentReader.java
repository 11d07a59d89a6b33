package io.toa4j.manifest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Reads a component's folder: its {@code manifest.toa.yaml}, validated and frozen. */
final class ComponentReader {
  static final String FILE = "manifest.toa.yaml";
  static final List<String> KEYS =
      List.of(
          "namespace",
          "name",
          "entity",
          "operations",
          "events",
          "receivers",
          "exposition",
          "configuration",
          "state",
          "continuity");
  static final String DEFAULT_NAMESPACE = "default";
  static final String RESERVED_NAMESPACE = "system";

  private static final String ROOT_FIX = "write the component's declarations as a mapping";

  private ComponentReader() {}

  /** The component declared in the folder. */
  static ComponentManifest read(Path directory) {
    Path folder = directory.toAbsolutePath().normalize();
    Path file = folder.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      throw missing(folder, file);
    }
    return read(YamlFiles.read(file), folder, folder, file, true);
  }

  /**
   * The component declared by a manifest's text that is not in a folder of its own: read from the
   * class path, or given in code.
   *
   * @param label the component's label when the text declares none, {@code namespace.name}
   * @param origin names the text in messages, such as {@code
   *     classpath:billing/wallets/manifest.toa.yaml}
   */
  static ComponentManifest read(String text, String label, String origin) {
    Path named = Path.of(origin);
    Path home = named.getParent() == null ? Path.of(label) : named.getParent();
    return read(YamlFiles.read(text, named), Path.of(label), home, named, false);
  }

  /**
   * @param labelling the folder whose name is the label when the manifest declares none
   * @param folder where the component's sources are, if anywhere
   * @param inFolder whether the manifest was read from the folder, whose {@code operations/} may
   *     hold operations it does not declare
   */
  private static ComponentManifest read(
      Declared whole, Path labelling, Path folder, Path file, boolean inFolder) {
    if (whole.node().isObject()) {
      for (Map.Entry<String, Declared> entry : whole.entries()) {
        if (KEYS.contains(entry.getKey())) continue;
        if (entry.getKey().equals("prototype") && entry.getValue().node().isNull())
          continue; // none, as toa4j has
        Declared at = entry.getValue();
        ToaComponentKeys.refusal(entry.getKey(), at.line())
            .ifPresent(
                problem -> {
                  throw at.refuse(problem);
                });
      }
    }
    Declared root =
        whole.node().isObject() && whole.node().has("prototype")
            ? without(whole, "prototype")
            : whole;
    root = root.mapping(KEYS, ROOT_FIX);
    ComponentLabel label = ComponentLabel.of(root, labelling);
    Optional<EntityDeclaration> entity = root.get("entity").map(EntityReader::read);
    Map<String, OperationDeclaration> operations = operations(root.get("operations"), entity);
    Set<String> named = new LinkedHashSet<>(operations.keySet());
    if (inFolder) {
      named.addAll(classOnly(folder));
    }
    OperationNames names = new OperationNames(named, entity.isPresent());
    return new ComponentManifest(
        folder,
        file,
        label.namespace(),
        label.name(),
        entity,
        operations,
        events(root.get("events")),
        receivers(root.get("receivers"), names),
        root.get("exposition").map(e -> ExpositionReader.read(e, names)),
        root.get("configuration").map(ComponentReader::configuration),
        root.get("state").map(ComponentReader::state).orElse(false),
        continuity(root.get("continuity"), operations, named));
  }

  /** The shortest window of a continuous effect, in seconds, as Toa has it: ten minutes. */
  static final long SHORTEST_WINDOW = 600;

  private static final String CONTINUITY_FIX =
      "name each continuous effect with how many seconds an unfinished run stays resumable, at"
          + " least "
          + SHORTEST_WINDOW
          + ", such as continuity: { onboard: 604800 }";

  /**
   * {@code continuity: { <effect>: <seconds> }}: the effects whose runs are journaled step by step
   * and resumed from the step that failed, each with how long an unfinished run stays resumable. No
   * default, at least {@value #SHORTEST_WINDOW}; an operation declared of another type is refused
   * here, one whose type its class decides is checked when the context starts.
   */
  private static Map<String, Long> continuity(
      Optional<Declared> declared,
      Map<String, OperationDeclaration> operations,
      Set<String> named) {
    if (declared.isEmpty()) return Map.of();
    Declared mapping = declared.get().mapping(CONTINUITY_FIX);
    Map<String, Long> windows = new LinkedHashMap<>();
    for (Map.Entry<String, Declared> entry : mapping.entries()) {
      String name = entry.getKey();
      Declared value = entry.getValue();
      if (!named.contains(name))
        throw value.refuse(
            "'"
                + name
                + "' is not an operation of this component; continuity names an effect the"
                + " component has"
                + (named.isEmpty() ? "" : " (" + String.join(", ", named) + ")"));
      OperationDeclaration operation = operations.get(name);
      if (operation != null
          && operation.type().isPresent()
          && operation.type().get() != OperationType.EFFECT)
        throw value.refuse(
            "'"
                + name
                + "' is a "
                + operation.type().get().yamlName()
                + ", and only an effect is continuous: a transition, an assignment, an observation"
                + " or a computation answers from the state it reads, so there is nothing to resume");
      if (!value.node().isIntegralNumber())
        throw value.refuse(
            "expected a whole number of seconds, found "
                + (value.node().isNull() ? "nothing" : value.node().toString())
                + "; there is no default: "
                + CONTINUITY_FIX);
      long seconds = value.node().asLong();
      if (seconds < SHORTEST_WINDOW)
        throw value.refuse(
            "a continuous run stays resumable at least "
                + SHORTEST_WINDOW
                + " seconds; got "
                + seconds
                + "; "
                + CONTINUITY_FIX);
      windows.put(name, seconds);
    }
    return Collections.unmodifiableMap(windows);
  }

  /**
   * {@code state: ~}, Toa's in-memory state of a component's instance: nothing else is written
   * after it.
   */
  private static boolean state(Declared declared) {
    if (!declared.node().isNull()) {
      throw declared.refuse(
          "state takes no settings; write state: ~ for an in-memory map the component's operations share in"
              + " each process (Context.state())");
    }
    return true;
  }

  private static final String CONFIGURATION_FIX =
      "declare the values' schema, such as configuration: { limit: 100 } (a"
          + " number, 100 unless set), or configuration: { schema: { limit: number }, defaults: { limit: 100 } }";

  /**
   * {@code configuration}, in Toa's two forms: a mapping with a {@code schema} key is the schema
   * and its {@code defaults}; any other mapping is the schema itself, concise or JSON Schema.
   */
  private static ConfigurationDeclaration configuration(Declared declared) {
    Declared mapping = declared.mapping(CONFIGURATION_FIX);
    Declared schema = mapping;
    ObjectNode defaults = JsonNodeFactory.instance.objectNode();
    if (mapping.node().has("schema")) {
      Declared parts = mapping.mapping(List.of("schema", "defaults"), CONFIGURATION_FIX);
      schema = parts.require("schema", CONFIGURATION_FIX);
      Optional<Declared> given = parts.get("defaults");
      if (given.isPresent()) {
        defaults =
            (ObjectNode)
                given
                    .get()
                    .mapping(
                        "write the defaults as a mapping of values, such as defaults: { limit: 100 }")
                    .node();
      }
    }
    JsonNode expanded =
        JsonSchemas.expand(
            schema, ConciseSchemas.References.none("a configuration refers to no entity"));
    boolean object =
        expanded.path("type").asString("").equals("object")
            || (!expanded.has("type") && expanded.has("properties"));
    if (!object) {
      throw schema.refuse(
          "a configuration is a mapping of values, and this schema is not an object's; "
              + CONFIGURATION_FIX);
    }
    return new ConfigurationDeclaration(
        JsonSchemas.compile(expanded, schema.location()), defaults, declared.location());
  }

  /**
   * The operations present only as source files under {@code operations/} ({@code Refund.java} is
   * {@code refund}), which receivers and routes may name as Toa lets them; the runtime binds them
   * and checks their classes. None for a component without a folder of sources.
   */
  private static List<String> classOnly(Path folder) {
    Path sources = folder.resolve("operations");
    if (!Files.isDirectory(sources)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(sources)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(f -> f.endsWith(".java") && f.length() > ".java".length())
          .map(
              f ->
                  Character.toLowerCase(f.charAt(0))
                      + f.substring(1, f.length() - ".java".length()))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + sources, e);
    }
  }

  private static ManifestException missing(Path folder, Path file) {
    Location at = new Location(file, "");
    if (!Files.isDirectory(folder)) {
      return new ManifestException(
          at,
          "there is no folder "
              + folder
              + "; name the folder of a component, which holds its"
              + " manifest.toa.yaml");
    }
    return new ManifestException(
        at,
        "a component folder needs a manifest.toa.yaml; create it, declaring the component's"
            + " entity, operations, events, receivers or exposition");
  }

  private static Map<String, OperationDeclaration> operations(
      Optional<Declared> declared, Optional<EntityDeclaration> entity) {
    if (declared.isEmpty()) {
      return Map.of();
    }
    Declared operations =
        declared.get().mapping("declare operations by name, such as { credit: { once: true } }");
    Map<String, OperationDeclaration> byName = new LinkedHashMap<>();
    for (Map.Entry<String, Declared> entry : operations.entries()) {
      byName.put(entry.getKey(), OperationReader.read(entry.getKey(), entry.getValue(), entity));
    }
    return Collections.unmodifiableMap(byName);
  }

  private static List<String> events(Optional<Declared> declared) {
    if (declared.isEmpty()) {
      return List.of();
    }
    Declared events = declared.get().mapping("declare events by name, such as { paid: }");
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, Declared> entry : events.entries()) {
      String name = Token.EVENT_NAME.check(entry.getKey(), entry.getValue().location());
      JsonNode settings = entry.getValue().node();
      if (!settings.isNull() && !(settings.isObject() && settings.isEmpty())) {
        throw entry
            .getValue()
            .refuse(
                "an event takes no settings here (its condition and payload"
                    + " are in its class under events/); write "
                    + name
                    + ": with nothing after it");
      }
      names.add(name);
    }
    return List.copyOf(names);
  }

  private static List<ReceiverDeclaration> receivers(
      Optional<Declared> declared, OperationNames names) {
    if (declared.isEmpty()) {
      return List.of();
    }
    Declared receivers =
        declared.get().mapping("map events to operations, such as { billing.topups.paid: credit }");
    Map<String, ReceiverDeclaration> byLabel = new LinkedHashMap<>();
    for (Map.Entry<String, Declared> entry : receivers.entries()) {
      ReceiverDeclaration receiver = receiver(entry.getKey(), entry.getValue(), names);
      ReceiverDeclaration twin = byLabel.putIfAbsent(receiver.label(), receiver);
      if (twin != null) {
        throw entry
            .getValue()
            .refuse(
                "receives "
                    + receiver.label()
                    + " as "
                    + twin.path().yamlPath()
                    + " does; keep one of them");
      }
    }
    return List.copyOf(byLabel.values());
  }

  private static ReceiverDeclaration receiver(String key, Declared value, OperationNames names) {
    String label = eventLabel(key, value.location());
    Declared operation = value;
    if (value.node().isObject()) {
      String fix = "write { operation: <name> }, or just the operation's name";
      Declared declared = value.mapping(List.of("operation", "binding"), fix);
      // Toa's binding names the transport (amqp); a toa4j receiver consumes from its context's bus
      declared
          .get("binding")
          .ifPresent(
              binding -> binding.text("write the name of Toa's binding, such as binding: amqp"));
      operation = declared.require("operation", fix);
    }
    return new ReceiverDeclaration(label, names.require(operation), value.location());
  }

  /** The mapping without one of its keys, read as the rest of it is, at the same places. */
  private static Declared without(Declared mapping, String key) {
    ObjectNode copy = ((ObjectNode) mapping.node()).deepCopy();
    copy.remove(key);
    return new Declared(copy, mapping.location());
  }

  /** {@code namespace.name.event}, from {@code namespace.name.event} or {@code name.event}. */
  private static String eventLabel(String key, Location at) {
    String[] parts = key.split("\\.", -1);
    if (parts.length == 2) {
      parts = new String[] {DEFAULT_NAMESPACE, parts[0], parts[1]};
    } else if (parts.length != 3) {
      throw new ManifestException(
          at,
          "'"
              + key
              + "' is not an event's label; write"
              + " namespace.name.event, or name.event for a component in the default namespace");
    }
    Token.COMPONENT_NAME.check(parts[0], at);
    Token.COMPONENT_NAME.check(parts[1], at);
    Token.EVENT_NAME.check(parts[2], at);
    return String.join(".", parts);
  }
}
