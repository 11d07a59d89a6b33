package io.toa4j.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed bearer tokens: {@code base64url(payload).base64url(HMAC-SHA256(secret, base64url(payload)))}
 * without padding, the payload being JSON {@code {"sub": id, "name": name, "exp": epoch seconds}}.
 * The MAC covers the payload as sent, and is checked (in constant time) before the payload is read;
 * the expiry is checked against the injected clock. Thread-safe.
 */
final class Tokens {
  static final String ALGORITHM = "HmacSHA256";
  /** Longer than any token this class issues for a name of {@link Identities}' maximum length. */
  private static final int MAX_LENGTH = 2048;
  private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

  private final SecretKeySpec key;
  private final Clock clock;

  /** @param secret at least 32 bytes */
  Tokens(byte[] secret, Clock clock) {
    if (secret.length < 32) throw new IllegalArgumentException("a token secret is at least 256 bits; got " + secret.length * 8);
    this.key = new SecretKeySpec(secret, ALGORITHM);
    this.clock = clock;
  }

  /** What a token is found to be. */
  sealed interface Checked {
    /** Signed here, not expired: it speaks for this identity until {@code expires}. */
    record Valid(String id, String name, Instant expires) implements Checked {}

    /** Not to be trusted, and why, in words for the client. */
    record Invalid(String reason) implements Checked {}
  }

  /** A token for the identity, valid until {@code expires} (to the second, rounded down). */
  String issue(String id, String name, Instant expires) {
    ObjectNode payload = JSON.createObjectNode().put("sub", id).put("name", name).put("exp", expires.getEpochSecond());
    String encoded;
    try {
      encoded = ENCODER.encodeToString(JSON.writeValueAsBytes(payload));
    } catch (IOException e) {
      throw new IllegalStateException("A token payload cannot be written", e);
    }
    return encoded + "." + ENCODER.encodeToString(mac(encoded));
  }

  /** Whether the token was signed with this secret, is well formed and has not expired. */
  Checked check(String token) {
    if (token.length() > MAX_LENGTH) return new Checked.Invalid("the bearer token is longer than any this gateway issues");
    int dot = token.indexOf('.');
    if (dot <= 0 || dot != token.lastIndexOf('.') || dot == token.length() - 1) {
      return new Checked.Invalid("the bearer token is not payload.signature");
    }
    String encoded = token.substring(0, dot);
    byte[] signature;
    byte[] payload;
    try {
      signature = Base64.getUrlDecoder().decode(token.substring(dot + 1));
      payload = Base64.getUrlDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      return new Checked.Invalid("the bearer token is not base64url");
    }
    if (!MessageDigest.isEqual(mac(encoded), signature)) return new Checked.Invalid("the bearer token's signature does not match");
    return claims(payload);
  }

  /** The payload of a token whose signature matched: still checked, since a secret may sign a bad one. */
  private Checked claims(byte[] payload) {
    JsonNode tree;
    try {
      tree = JSON.readTree(new String(payload, StandardCharsets.UTF_8));
    } catch (IOException e) {
      return new Checked.Invalid("the bearer token's payload is not JSON");
    }
    if (tree == null || !tree.path("sub").isTextual() || !ID.matcher(tree.path("sub").asText()).matches()
        || !tree.path("name").isTextual() || !tree.path("exp").isIntegralNumber()) {
      return new Checked.Invalid("the bearer token's payload lacks sub, name or exp");
    }
    long exp = tree.path("exp").asLong();
    if (exp < 0 || exp > Instant.MAX.getEpochSecond()) return new Checked.Invalid("the bearer token's exp is out of range");
    Instant expires = Instant.ofEpochSecond(exp);
    if (!clock.instant().isBefore(expires)) return new Checked.Invalid("the bearer token expired at " + expires + "; get a new one");
    return new Checked.Valid(tree.path("sub").asText(), tree.path("name").asText(), expires);
  }

  private byte[] mac(String encoded) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(encoded.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("The JDK has no " + ALGORITHM + ", which every Java 17 provides", e);
    }
  }
}
