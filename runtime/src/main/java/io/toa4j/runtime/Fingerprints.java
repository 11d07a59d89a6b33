package io.toa4j.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.toa4j.api.Query;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

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

  private Fingerprints() {}

  static String of(String operation, Invocation call) {
    StringBuilder text = new StringBuilder("{\"operation\":");
    text.append(TextNode.valueOf(operation)).append(",\"query\":");
    call.query().ifPresentOrElse(q -> query(q, text), () -> text.append("null"));
    text.append(",\"input\":");
    canonical(call.input(), text);
    text.append('}');
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  private static void query(Query query, StringBuilder text) {
    // the keys in sorted order, as in any canonical object
    text.append('{');
    List<String> fields = new ArrayList<>();
    query.id().ifPresent(id -> fields.add("\"id\":" + TextNode.valueOf(id)));
    query.limit().ifPresent(l -> fields.add("\"limit\":" + l));
    query.omit().ifPresent(o -> fields.add("\"omit\":" + o));
    query.version().ifPresent(v -> fields.add("\"version\":" + v));
    text.append(String.join(",", fields)).append('}');
  }

  /** The canonical text of a tree; a missing node (no input) is written as null, as null is. */
  static void canonical(JsonNode node, StringBuilder text) {
    if (node.isObject()) {
      List<String> keys = new ArrayList<>();
      node.fieldNames().forEachRemaining(keys::add);
      Collections.sort(keys);
      text.append('{');
      for (int i = 0; i < keys.size(); i++) {
        if (i > 0) text.append(',');
        text.append(TextNode.valueOf(keys.get(i))).append(':');
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
    } else if (node.isTextual()) {
      text.append(node); // a TextNode writes itself quoted and escaped
    } else if (node.isBoolean()) {
      text.append(node.booleanValue());
    } else if (node.isBinary()) {
      text.append(TextNode.valueOf(node.asText()));
    } else {
      text.append("null");
    }
  }

  private static String number(JsonNode node) {
    if (node.isIntegralNumber()) return node.bigIntegerValue().toString();
    if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) return Double.toString(node.doubleValue());
    BigDecimal value = node.decimalValue().stripTrailingZeros();
    return value.scale() <= 0 ? value.toBigIntegerExact().toString() : value.toPlainString();
  }
}
