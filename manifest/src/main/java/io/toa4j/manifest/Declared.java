package io.toa4j.manifest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A node of a manifest's tree and where it is declared.
 *
 * <p>Every accessor answers the value in the shape asked for, or throws a {@link ManifestException}
 * at this node's location saying what was found and what to write instead. The {@code fix}
 * arguments are that second half: what the user should write.
 */
final class Declared {
  private final JsonNode node;
  private final Location location;

  Declared(JsonNode node, Location location) {
    this.node = node;
    this.location = location;
  }

  JsonNode node() {
    return node;
  }

  Location location() {
    return location;
  }

  /** The exception to throw for a problem with this node. */
  ManifestException refuse(String problem) {
    return new ManifestException(location, problem);
  }

  /** {@code " (line 12)"} where this node is written in its file; empty when that is unknown. */
  String line() {
    return YamlFiles.line(location).stream()
        .mapToObj(n -> " (line " + n + ")")
        .findFirst()
        .orElse("");
  }

  /** This node, which must be a mapping. */
  Declared mapping(String fix) {
    if (!node.isObject()) {
      throw refuse("expected a mapping, found " + describe(node) + "; " + fix);
    }
    return this;
  }

  /** This node, which must be a mapping whose keys are all among {@code allowed}. */
  Declared mapping(Collection<String> allowed, String fix) {
    mapping(fix);
    for (String key : names()) {
      if (!allowed.contains(key)) {
        throw child(key).refuse(unknownKey(key, allowed));
      }
    }
    return this;
  }

  /** The value under {@code key} of this mapping, if the key is present (even with null). */
  Optional<Declared> get(String key) {
    JsonNode value = node.get(key);
    return value == null ? Optional.empty() : Optional.of(child(key));
  }

  /** The value under {@code key} of this mapping, which must be present. */
  Declared require(String key, String fix) {
    return get(key).orElseThrow(() -> refuse("'" + key + "' is missing; " + fix));
  }

  /** The keys of this mapping, in declared order. */
  List<String> names() {
    List<String> names = new ArrayList<>();
    node.propertyNames().forEach(names::add);
    return names;
  }

  /** The entries of this mapping, in declared order. */
  List<Map.Entry<String, Declared>> entries() {
    List<Map.Entry<String, Declared>> entries = new ArrayList<>();
    for (String key : names()) {
      entries.add(Map.entry(key, child(key)));
    }
    return entries;
  }

  /** The items of this node, which must be a list. */
  List<Declared> items(String fix) {
    if (!node.isArray()) {
      throw refuse("expected a list, found " + describe(node) + "; " + fix);
    }
    List<Declared> items = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      items.add(new Declared(node.get(i), index(location, i)));
    }
    return items;
  }

  /** This node's text, which must be a string. */
  String text(String fix) {
    if (!node.isString()) {
      throw refuse("expected a string, found " + describe(node) + "; " + fix);
    }
    return node.stringValue();
  }

  /** This node's text, which must fit the token. */
  String token(Token token) {
    return token.check(text("write " + token.rule()), location);
  }

  /** This node's boolean, which must be {@code true} or {@code false}. */
  boolean bool(String fix) {
    if (!node.isBoolean()) {
      throw refuse("expected true or false, found " + describe(node) + "; " + fix);
    }
    return node.booleanValue();
  }

  /** This node's whole number. */
  long integer(String fix) {
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw refuse("expected a whole number, found " + describe(node) + "; " + fix);
    }
    return node.longValue();
  }

  /** The location of the part of this node at a JSON pointer, such as {@code /properties/a}. */
  Location at(String pointer) {
    Location at = location;
    JsonNode current = node;
    for (String segment : JsonPointers.segments(pointer)) {
      if (current != null && current.isArray()) {
        int i = Integer.parseInt(segment);
        at = index(at, i);
        current = current.get(i);
      } else {
        at = at.child(segment);
        current = current == null ? null : current.get(segment);
      }
    }
    return at;
  }

  /** The unknown-key problem, listing the keys allowed there. */
  static String unknownKey(String key, Collection<String> allowed) {
    return "unknown key '" + key + "'; the keys allowed here are " + String.join(", ", allowed);
  }

  /** The value in words, for messages: {@code the string 'yes please'}, {@code a list}. */
  static String describe(JsonNode value) {
    if (value == null || value.isMissingNode() || value.isNull()) {
      return "nothing";
    }
    if (value.isString()) {
      return "the string '" + value.stringValue() + "'";
    }
    if (value.isNumber()) {
      return "the number " + value.asString();
    }
    if (value.isBoolean()) {
      return value.asString();
    }
    return value.isArray() ? "a list" : value.isObject() ? "a mapping" : value.getNodeType().name();
  }

  Declared child(String key) {
    return new Declared(node.get(key), location.child(key));
  }

  private static Location index(Location list, int i) {
    return new Location(list.file(), list.yamlPath() + "[" + i + "]");
  }
}
