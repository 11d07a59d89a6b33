package io.toa4j.runtime;

import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ConfigurationDeclaration;
import io.toa4j.manifest.ContextManifest;
import io.toa4j.manifest.Violation;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The configuration of each hosted component that declares one, resolved once at start
 * (docs/manifest.md, "Configuration"). The layers, each mapping merged into the one under it
 * property by property (a value that is not a mapping replaces what is under it): the manifest's
 * {@code defaults}; the context's {@code configuration} values for the component; the environment's
 * {@code TOA_CONFIGURATION_<NAMESPACE>_<NAME>}, a JSON object, or one in base64 as Toa deploys it.
 * Then each secret — a text that is {@code $NAME} alone, at any depth — is replaced by the
 * environment's {@code TOA_CONFIGURATION__NAME}; then the schema's own defaults are given to the
 * properties still missing, and the whole is checked against the schema. A start whose values do
 * not fit, or that lacks a secret, is refused naming the component, the variable or the property.
 * Thread-safe and stateless.
 */
final class Configurations {
  /** The start of the variable a component's values are given in. */
  static final String PREFIX = "TOA_CONFIGURATION_";

  private static final Pattern SECRET = Pattern.compile("^\\$([A-Z0-9_]{1,32})$");

  private Configurations() {}

  /** The values of each hosted component that declares a configuration, by label. */
  static Map<String, JsonNode> resolve(
      ContextManifest context, Set<String> hosted, Map<String, String> environment) {
    Map<String, JsonNode> resolved = new HashMap<>();
    for (ComponentManifest component : context.components()) {
      if (!hosted.contains(component.label())) continue;
      component
          .configuration()
          .ifPresent(
              declared ->
                  resolved.put(
                      component.label(),
                      resolve(
                          component.label(),
                          declared,
                          context.configuration(component.label()),
                          environment)));
    }
    return Map.copyOf(resolved);
  }

  private static JsonNode resolve(
      String label,
      ConfigurationDeclaration declared,
      java.util.Optional<ObjectNode> given,
      Map<String, String> environment) {
    ObjectNode values = declared.defaults();
    given.ifPresent(g -> merge(values, g));
    String variable = variable(label);
    String set = environment.get(variable);
    if (set != null && !set.isBlank()) merge(values, fromEnvironment(label, variable, set));
    secrets(label, values, "", environment);
    JsonNode complete = declared.schema().withDefaults(values);
    List<Violation> violations = declared.schema().validate(complete);
    if (!violations.isEmpty()) {
      throw new StartupException(
          "The configuration of "
              + label
              + " does not fit its schema ("
              + declared.location().file()
              + ", configuration): "
              + violations.stream().map(Violation::toString).collect(Collectors.joining("; "))
              + "; give the values under configuration: { "
              + label
              + ": { ... } } in the context's context.toa.yaml, or in "
              + variable);
    }
    return complete;
  }

  /**
   * {@code TOA_CONFIGURATION_} and the label in capitals, each character other than a letter or
   * digit an underscore.
   */
  static String variable(String label) {
    return PREFIX + label.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
  }

  private static ObjectNode fromEnvironment(String label, String variable, String set) {
    String text = set.strip();
    if (!text.startsWith("{")) {
      try {
        text = new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8).strip();
      } catch (IllegalArgumentException e) {
        throw new StartupException(
            variable
                + " (the configuration of "
                + label
                + ") is neither a JSON object nor one in"
                + " base64; set it to the values as JSON, such as {\"limit\":100}");
      }
    }
    JsonNode parsed;
    try {
      parsed = Binding.VALUES.readTree(text);
    } catch (JacksonException e) {
      throw new StartupException(
          variable
              + " (the configuration of "
              + label
              + ") is not JSON: "
              + e.getOriginalMessage()
              + "; set it to the values as a JSON object, such as {\"limit\":100}");
    }
    if (!(parsed instanceof ObjectNode object)) {
      throw new StartupException(
          variable
              + " (the configuration of "
              + label
              + ") holds "
              + parsed.getNodeType().name().toLowerCase(Locale.ROOT)
              + ", not an object; set it to the values as a JSON object, such as {\"limit\":100}");
    }
    return object;
  }

  /**
   * Lays {@code over} onto {@code under}: mappings merged property by property, anything else
   * replaced.
   */
  private static void merge(ObjectNode under, ObjectNode over) {
    for (Map.Entry<String, JsonNode> entry : over.properties()) {
      JsonNode below = under.get(entry.getKey());
      if (below instanceof ObjectNode nested && entry.getValue() instanceof ObjectNode above) {
        merge(nested, above);
      } else {
        under.set(entry.getKey(), entry.getValue().deepCopy());
      }
    }
  }

  /**
   * Replaces each {@code $NAME} text, at any depth, with the environment's {@code
   * TOA_CONFIGURATION__NAME}.
   */
  private static void secrets(
      String label, JsonNode node, String path, Map<String, String> environment) {
    if (node instanceof ObjectNode object) {
      for (Map.Entry<String, JsonNode> entry : List.copyOf(object.properties())) {
        String at = path + "/" + entry.getKey();
        String secret = secret(label, entry.getValue(), at, environment);
        if (secret != null) {
          object.put(entry.getKey(), secret);
        } else {
          secrets(label, entry.getValue(), at, environment);
        }
      }
    } else if (node instanceof tools.jackson.databind.node.ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        String at = path + "/" + i;
        String secret = secret(label, array.get(i), at, environment);
        if (secret != null) {
          array.set(i, array.stringNode(secret));
        } else {
          secrets(label, array.get(i), at, environment);
        }
      }
    }
  }

  /** The secret a value names, read from the environment; null when the value names none. */
  private static String secret(
      String label, JsonNode value, String at, Map<String, String> environment) {
    if (!value.isString()) return null;
    Matcher named = SECRET.matcher(value.asString());
    if (!named.matches()) return null;
    String variable = PREFIX + "_" + named.group(1);
    String secret = environment.get(variable);
    if (secret == null) {
      throw new StartupException(
          "The configuration of "
              + label
              + " names the secret "
              + value.asString()
              + " at "
              + at
              + ", and "
              + variable
              + " is not set; set it in the environment of the process that hosts "
              + label);
    }
    return secret;
  }
}
