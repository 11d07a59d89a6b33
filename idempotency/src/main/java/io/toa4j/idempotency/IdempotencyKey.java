package io.toa4j.idempotency;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * A client's {@code Idempotency-Key}, read and checked, and the call identity it gives.
 *
 * <p>The field is a Structured-Fields string (RFC 8941: {@code "..."}, printable ASCII, with only
 * {@code \"} and {@code \\} escaped), as the IETF httpapi draft defines it. A bare key is accepted
 * too, when it is visible ASCII without spaces, quotes or backslashes, because clients send UUIDs
 * bare: {@code 3f1c8a2e-...} and {@code "3f1c8a2e-..."} are one key. The key, unescaped, is 1 to
 * 255 characters. Anything else is refused with a message that says what is wrong.
 *
 * @param value the key, unescaped
 */
public record IdempotencyKey(String value) {
  static final String HEADER = "idempotency-key";
  static final int MAX_LENGTH = 255;
  private static final HexFormat HEX = HexFormat.of();

  /** Names the encoding below, so that a change of it never meets identities made by this one. */
  private static final String DOMAIN = "toa4j/idempotency-key/1";

  /**
   * The key the request's {@code idempotency-key} fields carry; empty when there is none.
   *
   * @throws IdempotencyRefusal 400 {@code IDEMPOTENCY_KEY} when there is more than one, or it is
   *     malformed
   */
  public static Optional<IdempotencyKey> of(List<String> fields) {
    if (fields.isEmpty()) return Optional.empty();
    if (fields.size() > 1)
      throw malformed("send one idempotency-key header; this request has " + fields.size());
    String field = fields.get(0).strip();
    String value = field.startsWith("\"") ? quoted(field) : bare(field);
    if (value.isEmpty())
      throw malformed("the idempotency-key is empty; send a unique key, such as a random UUID");
    if (value.length() > MAX_LENGTH) {
      throw malformed(
          "the idempotency-key is "
              + value.length()
              + " characters long; a key is at most "
              + MAX_LENGTH);
    }
    return Optional.of(new IdempotencyKey(value));
  }

  /** An sf-string: the text between quotes, unescaped. */
  private static String quoted(String field) {
    StringBuilder value = new StringBuilder();
    for (int i = 1; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '"') {
        if (i != field.length() - 1) {
          throw malformed(
              "the idempotency-key has '"
                  + field.substring(i + 1)
                  + "' after its closing quote; send one quoted string");
        }
        return value.toString();
      }
      if (c == '\\') {
        char next = i + 1 < field.length() ? field.charAt(i + 1) : ' ';
        if (next != '"' && next != '\\') {
          throw malformed(
              "the idempotency-key escapes '"
                  + next
                  + "' at position "
                  + (i + 1)
                  + "; in a quoted key only \\\" and \\\\ are escapes");
        }
        value.append(next);
        i++;
      } else if (c < 0x20 || c > 0x7e) {
        throw malformed(
            "the idempotency-key holds "
                + describe(c)
                + " at position "
                + (i + 1)
                + "; a key is printable ASCII");
      } else {
        value.append(c);
      }
    }
    throw malformed(
        "the idempotency-key opens a quote it does not close; send \"<key>\" or the key bare");
  }

  /** A key sent without quotes: visible ASCII, no spaces, quotes or backslashes. */
  private static String bare(String field) {
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c <= 0x20 || c > 0x7e || c == '"' || c == '\\') {
        throw malformed(
            "the idempotency-key holds "
                + describe(c)
                + " at position "
                + (i + 1)
                + "; send the key as a quoted string (\"...\", printable ASCII, \\\" and \\\\ escaped),"
                + " or bare when it is visible ASCII without spaces, quotes or backslashes");
      }
    }
    return field;
  }

  private static String describe(char c) {
    if (c == ' ') return "a space";
    if (c == '"') return "a quote";
    if (c == '\\') return "a backslash";
    return String.format("the character U+%04X", (int) c);
  }

  private static IdempotencyRefusal malformed(String message) {
    return new IdempotencyRefusal(400, "IDEMPOTENCY_KEY", message);
  }

  /**
   * The call identity of a request carrying this key: 32 hexadecimal characters of SHA-256 over the
   * caller's id, the method, the route as declared and the key, each prefixed by its length, so no
   * two different quadruples are one text, and one caller's key never names another's call.
   *
   * @param caller the id of the identity the request is made by
   * @param route the route's declared path, such as {@code /billing/wallets/:id/credits/}
   */
  String identity(String caller, String method, String route) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part : List.of(DOMAIN, caller, method, route, value)) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        sha.update(bytes);
      }
      return HEX.formatHex(sha.digest(), 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
