package io.toa4j.runtime;

import io.toa4j.api.Query;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.databind.JsonNode;

/**
 * The fingerprint of what a call asks for: {@code hex(SHA-256)} of a canonical JSON text of {@code
 * { operation, query, input }}. Canonical: object keys sorted, no whitespace, numbers by value
 * ({@code 5}, {@code 5.0} and {@code 5e0} are one number), strings escaped as JSON escapes them. So
 * one request sent as YAML or as JSON, with its keys in any order, has one fingerprint, and any
 * difference in what it asks for gives another.
 *
 * <p>Stateless and thread-safe.
 */
final class Fingerprints {
  private static final HexFormat HEX = HexFormat.of();
  private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();
  private static final MessageDigest SHA_256 = sha256();

  private Fingerprints() {}

  static String of(String operation, Invocation call) {
    StringBuilder text = new StringBuilder("{\"operation\":");
    quoted(operation, text).append(",\"query\":");
    call.asked().ifPresentOrElse(q -> query(q, text), () -> text.append("null"));
    text.append(",\"input\":");
    canonical(call.input(), text);
    text.append('}');
    return HEX.formatHex(digest().digest(text.toString().getBytes(StandardCharsets.UTF_8)));
  }

  /** A fresh SHA-256 digest, cloned: cheaper than looking the algorithm up at every call. */
  static MessageDigest digest() {
    try {
      return (MessageDigest) SHA_256.clone();
    } catch (CloneNotSupportedException e) {
      return sha256();
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  /** A string as JSON writes it: quoted, escaped as Jackson escapes it. */
  private static StringBuilder quoted(String value, StringBuilder text) {
    text.append('"');
    QUOTE.quoteAsString(value, text);
    return text.append('"');
  }

  private static void query(Query query, StringBuilder text) {
    // the keys in sorted order, as in any canonical object
    text.append('{');
    int empty = text.length();
    query.criteria().ifPresent(c -> quoted(c, field("criteria", text, empty)));
    query.id().ifPresent(id -> quoted(id, field("id", text, empty)));
    query.limit().ifPresent(l -> field("limit", text, empty).append(l));
    query.omit().ifPresent(o -> field("omit", text, empty).append(o));
    query.sort().ifPresent(o -> quoted(o, field("sort", text, empty)));
    query.version().ifPresent(v -> field("version", text, empty).append(v));
    text.append('}');
  }

  /**
   * Starts a field of the object begun at {@code start}: a comma unless it is the first, then its
   * name.
   */
  private static StringBuilder field(String name, StringBuilder text, int start) {
    if (text.length() > start) text.append(',');
    return text.append('"').append(name).append("\":");
  }

  /** The canonical text of a tree; a missing node (no input) is written as null, as null is. */
  static void canonical(JsonNode node, StringBuilder text) {
    if (node.isObject()) {
      List<String> keys = new ArrayList<>();
      node.propertyNames().forEach(keys::add);
      Collections.sort(keys);
      text.append('{');
      for (int i = 0; i < keys.size(); i++) {
        if (i > 0) text.append(',');
        quoted(keys.get(i), text).append(':');
        canonical(node.get(keys.get(i)), text);
      }
      text.append('}');
    } else if (node.isArray()) {
      text.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) text.append(',');
        canonical(node.get(i), text);
      }
      text.append(']');
    } else if (node.isNumber()) {
      text.append(number(node));
    } else if (node.isString()) {
      quoted(node.stringValue(), text);
    } else if (node.isBoolean()) {
      text.append(node.booleanValue());
    } else if (node.isBinary()) {
      quoted(node.asString(), text);
    } else {
      text.append("null");
    }
  }

  private static String number(JsonNode node) {
    if (node.isInt() || node.isLong() || node.isShort()) return Long.toString(node.longValue());
    if (node.isIntegralNumber()) return node.bigIntegerValue().toString();
    if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue()))
      return Double.toString(node.doubleValue());
    BigDecimal value = node.decimalValue().stripTrailingZeros();
    return value.scale() <= 0 ? value.toBigIntegerExact().toString() : value.toPlainString();
  }
}
