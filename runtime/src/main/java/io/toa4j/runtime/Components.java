package io.toa4j.runtime;

import io.toa4j.api.Assignment;
import io.toa4j.api.Computation;
import io.toa4j.api.Effect;
import io.toa4j.api.Entry;
import io.toa4j.api.Observation;
import io.toa4j.api.Transition;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.Concurrency;
import io.toa4j.manifest.Location;
import io.toa4j.manifest.ManifestException;
import io.toa4j.manifest.Manifests;
import io.toa4j.manifest.OperationDeclaration;
import io.toa4j.manifest.OperationType;
import io.toa4j.manifest.QueryRule;
import io.toa4j.manifest.Schema;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Binds a component's declared operations to its classes, checking at load everything that can be
 * checked: each declared operation has its class, of the declared kind, with an input and an entity
 * of the schemas' shape; a class under {@code operations/} that is not declared is an operation of
 * its own, as Toa finds operations by their files.
 */
final class Components {
  private static final Map<Class<?>, OperationType> KINDS =
      Map.of(
          Transition.class, OperationType.TRANSITION,
          Observation.class, OperationType.OBSERVATION,
          Assignment.class, OperationType.ASSIGNMENT,
          Effect.class, OperationType.EFFECT,
          Computation.class, OperationType.COMPUTATION);

  private Components() {}

  static Map<String, Operation> bind(ComponentManifest manifest, ComponentCode code) {
    Map<String, Operation> operations = new LinkedHashMap<>();
    manifest
        .entity()
        .ifPresent(e -> generic(manifest).forEach(op -> operations.put(op.name(), op)));
    for (OperationDeclaration declaration : manifest.operations().values()) {
      if (declaration.forward().filter(declaration.name()::equals).isPresent())
        refuseClassOf(manifest, code, declaration);
      operations.put(
          declaration.name(),
          declaration.forward().isPresent()
              ? new Operation(
                  declaration.name(),
                  declaration.type().orElseThrow(),
                  declaration,
                  Optional.empty())
              : authored(manifest, code, declaration));
    }
    for (String simple : code.simpleNamesIn("operations")) {
      String name = Character.toLowerCase(simple.charAt(0)) + simple.substring(1);
      if (operations.containsKey(name) || manifest.operations().containsKey(name)) {
        if (!manifest.operations().containsKey(name))
          refuseClassOf(manifest, code, operations.get(name).declaration());
        continue;
      }
      operations.put(name, authored(manifest, code, undeclared(manifest, name, simple)));
    }
    return Map.copyOf(operations);
  }

  /**
   * The declaration of an operation found as a class under {@code operations/} and not declared, as
   * Toa finds operations by their files: its type from its class, an optional query, no input (so
   * its class takes {@code Void}), no output schema, no refusal codes, no {@code once}.
   */
  private static OperationDeclaration undeclared(
      ComponentManifest manifest, String name, String simple) {
    Location at =
        new Location(manifest.directory().resolve("operations").resolve(simple + ".java"), "");
    return new OperationDeclaration(
        name,
        at,
        Optional.empty(),
        Concurrency.NONE,
        QueryRule.OPTIONAL,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Set.of(),
        Optional.empty());
  }

  /**
   * A class for an operation the runtime implements itself ({@code transit}, {@code observe}, ...):
   * refused.
   */
  private static void refuseClassOf(
      ComponentManifest manifest, ComponentCode code, OperationDeclaration declaration) {
    String simple =
        Character.toUpperCase(declaration.name().charAt(0)) + declaration.name().substring(1);
    if (code.find("operations", simple).isPresent()) {
      throw new StartupException(
          declaration.path()
              + ": "
              + declaration.name()
              + " is given to every entity and runs no class of its own, but there is"
              + " one ("
              + simple
              + "); name the class and the operation otherwise, such as "
              + Character.toLowerCase(simple.charAt(0))
              + simple.substring(1)
              + "Record");
    }
  }

  private static List<Operation> generic(ComponentManifest manifest) {
    Location at = new Location(manifest.file(), "entity");
    Schema changeset = manifest.entity().orElseThrow().changeset();
    return List.of(
        new Operation(
            "observe",
            OperationType.OBSERVATION,
            declaration("observe", at, OperationType.OBSERVATION, QueryRule.REQUIRED, null),
            Optional.empty()),
        new Operation(
            "enumerate",
            OperationType.OBSERVATION,
            declaration("enumerate", at, OperationType.OBSERVATION, QueryRule.OPTIONAL, null),
            Optional.empty()),
        new Operation(
            "assign",
            OperationType.ASSIGNMENT,
            declaration("assign", at, OperationType.ASSIGNMENT, QueryRule.REQUIRED, changeset),
            Optional.empty()));
  }

  private static OperationDeclaration declaration(
      String name, Location at, OperationType type, QueryRule query, Schema input) {
    return new OperationDeclaration(
        name,
        at,
        Optional.of(type),
        Concurrency.NONE,
        query,
        Optional.empty(),
        Optional.ofNullable(input),
        Optional.empty(),
        Set.of(),
        Optional.of(name));
  }

  private static Operation authored(
      ComponentManifest manifest, ComponentCode code, OperationDeclaration declaration) {
    String simple =
        Character.toUpperCase(declaration.name().charAt(0)) + declaration.name().substring(1);
    Path expected = manifest.directory().resolve("operations").resolve(simple + ".java");
    Class<?> type =
        code.find("operations", simple)
            .orElseThrow(
                () ->
                    new StartupException(
                        declaration.path()
                            + ": operation '"
                            + declaration.name()
                            + "' is declared, but there is no class for it; create "
                            + expected
                            + " implementing one of Transition, Observation, Assignment, Effect or Computation"
                            + " (or, precompiled, the class "
                            + ComponentCode.conventionalPackage(manifest)
                            + ".operations."
                            + simple
                            + ")"));
    Class<?> kind = kind(type, declaration);
    OperationType inferred = KINDS.get(kind);
    declaration
        .type()
        .filter(t -> t != inferred)
        .ifPresent(
            t -> {
              throw new StartupException(
                  declaration.path()
                      + ": declared as "
                      + t.yamlName()
                      + ", but "
                      + type.getName()
                      + " implements "
                      + kind.getSimpleName()
                      + "; make the two agree");
            });
    try {
      Manifests.checkInferredType(declaration, manifest.entity().isPresent(), inferred);
    } catch (ManifestException e) {
      throw new StartupException(e.getMessage(), e);
    }
    Type[] arguments = typeArguments(type, kind);
    Optional<Class<?>> input = input(declaration, type, arguments[0]);
    Optional<Class<? extends Entry>> entity = Optional.empty();
    if (inferred == OperationType.TRANSITION || inferred == OperationType.OBSERVATION) {
      entity = Optional.of(entity(manifest, declaration, type, arguments[1]));
    }
    requireMethod(type, kind, declaration);
    return new Operation(
        declaration.name(),
        inferred,
        declaration,
        Optional.of(new Operation.Code(instantiate(type, declaration), input, entity)));
  }

  private static Class<?> kind(Class<?> type, OperationDeclaration declaration) {
    List<Class<?>> kinds = new ArrayList<>();
    for (Class<?> k : KINDS.keySet()) if (k.isAssignableFrom(type)) kinds.add(k);
    if (kinds.size() != 1) {
      throw new StartupException(
          declaration.path()
              + ": "
              + type.getName()
              + " must implement exactly one of Transition, Observation,"
              + " Assignment, Effect or Computation (from io.toa4j.api); it implements "
              + (kinds.isEmpty() ? "none" : kinds.stream().map(Class::getSimpleName).toList()));
    }
    return kinds.get(0);
  }

  private static Type[] typeArguments(Class<?> type, Class<?> kind) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      for (Type t : c.getGenericInterfaces()) {
        if (t instanceof ParameterizedType p && p.getRawType() == kind)
          return p.getActualTypeArguments();
      }
    }
    throw new StartupException(
        type.getName()
            + " implements "
            + kind.getSimpleName()
            + " without type arguments; write, for example, "
            + kind.getSimpleName()
            + (kind == Transition.class || kind == Observation.class
                ? "<CreditInput, Wallet>"
                : "<CreditInput>"));
  }

  private static Optional<Class<?>> input(
      OperationDeclaration declaration, Class<?> type, Type argument) {
    Class<?> input = argument instanceof Class<?> c ? c : null;
    if (input == null) {
      throw new StartupException(
          declaration.path()
              + ": the input type of "
              + type.getName()
              + " must be a class or record, not "
              + argument.getTypeName());
    }
    if (declaration.input().isEmpty()) {
      if (input != Void.class) {
        throw new StartupException(
            declaration.path()
                + ": the operation declares no input, but "
                + type.getName()
                + " takes "
                + input.getSimpleName()
                + "; declare its input schema in the manifest, or take Void");
      }
      return Optional.empty();
    }
    if (input == Void.class) {
      throw new StartupException(
          declaration.path()
              + ".input: the operation declares an input, but "
              + type.getName()
              + " takes Void; take a record shaped like the input schema");
    }
    JsonNode schema = declaration.input().get().source();
    JsonNode properties = schema.get("properties");
    List<String> problems =
        properties != null
                && properties.isObject()
                && !java.util.Map.class.isAssignableFrom(input)
                && !JsonNode.class.isAssignableFrom(input)
            ? Shapes.mismatches(input, properties)
            : Shapes.fits(input, schema)
                ? List.of()
                : List.of(input.getSimpleName() + " cannot hold " + schema);
    if (!problems.isEmpty()) {
      throw new StartupException(
          declaration.path()
              + ".input: "
              + input.getName()
              + " does not fit the input schema: "
              + String.join("; ", problems));
    }
    return Optional.of(input);
  }

  @SuppressWarnings("unchecked")
  private static Class<? extends Entry> entity(
      ComponentManifest manifest, OperationDeclaration declaration, Class<?> type, Type argument) {
    if (!(argument instanceof Class<?> c) || !Entry.class.isAssignableFrom(c) || c == Entry.class) {
      throw new StartupException(
          declaration.path()
              + ": the entity type of "
              + type.getName()
              + " must be a class extending io.toa4j.api.Entry, not "
              + argument.getTypeName());
    }
    JsonNode properties = manifest.entity().orElseThrow().properties();
    List<String> problems = Shapes.mismatches(c, properties);
    if (!problems.isEmpty()) {
      throw new StartupException(
          new Location(manifest.file(), "entity.properties")
              + ": "
              + c.getName()
              + " does not fit the entity: "
              + String.join("; ", problems));
    }
    try {
      var unused = c.getDeclaredConstructor(); // only whether there is one
    } catch (NoSuchMethodException e) {
      throw new StartupException(
          c.getName() + " needs a constructor without arguments, so the runtime can create it");
    }
    return (Class<? extends Entry>) c;
  }

  /** The author must override one of the kind's two methods; the defaults only delegate. */
  private static void requireMethod(
      Class<?> type, Class<?> kind, OperationDeclaration declaration) {
    String method =
        kind.getSimpleName().substring(0, 1).toLowerCase() + kind.getSimpleName().substring(1);
    for (Method m : kind.getMethods()) {
      if (!m.getName().equals(method)) continue;
      try {
        Method implemented = type.getMethod(m.getName(), m.getParameterTypes());
        if (implemented.getDeclaringClass() != kind) return;
      } catch (NoSuchMethodException ignored) {
        // keep looking at the other overload
      }
    }
    throw new StartupException(
        declaration.path()
            + ": "
            + type.getName()
            + " implements "
            + kind.getSimpleName()
            + " but overrides neither of its "
            + method
            + " methods; implement "
            + method
            + "(input, ...) or "
            + method
            + "(input, ..., Context)");
  }

  private static Object instantiate(Class<?> type, OperationDeclaration declaration) {
    try {
      Constructor<?> constructor = type.getDeclaredConstructor();
      constructor.setAccessible(true);
      return constructor.newInstance();
    } catch (NoSuchMethodException e) {
      throw new StartupException(
          declaration.path() + ": " + type.getName() + " needs a constructor without arguments");
    } catch (ReflectiveOperationException e) {
      throw new StartupException(
          declaration.path() + ": " + type.getName() + " could not be created: " + e, e);
    }
  }
}
