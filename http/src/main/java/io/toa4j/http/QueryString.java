package io.toa4j.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A request's query string read strictly: {@code name=value} fields separated by {@code &}, each
 * percent-decoded ({@code +} is a space) to UTF-8. A {@code %} not followed by two hexadecimal
 * digits, or escapes that decode to bytes that are not UTF-8, are a 400 naming the field, where a
 * lenient decoder would guess. Stateless.
 */
final class QueryString {
  /** One field, decoded; the value is empty when the field has no {@code =}. */
  record Field(String name, String value) {}

  private QueryString() {}

  /**
   * The fields of a raw query string, in order; none for a missing or empty one.
   *
   * @throws Problem 400 for a malformed escape or a field that is not UTF-8
   */
  static List<Field> fields(String raw) {
    List<Field> fields = new ArrayList<>();
    if (raw == null || raw.isEmpty()) return fields;
    for (String field : raw.split("&", -1)) {
      if (field.isEmpty()) continue;
      int equals = field.indexOf('=');
      String name = equals < 0 ? field : field.substring(0, equals);
      String value = equals < 0 ? "" : field.substring(equals + 1);
      fields.add(new Field(decode(name, field), decode(value, field)));
    }
    return fields;
  }

  private static String decode(String text, String field) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%') {
        int high = i + 1 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
        int low = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
        if (high < 0 || low < 0) {
          String escape = text.substring(i, Math.min(text.length(), i + 3));
          throw new Problem(
              400,
              "MALFORMED",
              "the query string field '"
                  + field
                  + "' holds '"
                  + escape
                  + "', which is not a percent-escape; write % as %25, and escape a byte as % and two hexadecimal digits");
        }
        bytes.write(high << 4 | low);
        i += 2;
      } else if (c == '+') {
        bytes.write(' ');
      } else {
        int codePoint = text.codePointAt(i);
        bytes.writeBytes(Character.toString(codePoint).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(codePoint) - 1;
      }
    }
    return Media.utf8(bytes.toByteArray(), "the query string field '" + field + "' decoded");
  }
}
