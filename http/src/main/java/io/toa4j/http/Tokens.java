package io.toa4j.http;

import com.nimbusds.jose.Header;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Signed bearer tokens: JSON Web Tokens (RFC 7519) in compact JWS form, HS256 (HMAC-SHA256) under
 * the context's token secret, signed and verified with Nimbus JOSE+JWT. The header is {@code
 * {"alg":"HS256","typ":"JWT"}}; the claims are {@code sub} (the identity's id), {@code name},
 * {@code iat} and {@code exp} (epoch seconds).
 *
 * <p>A token is accepted only when all of these hold, checked in this order: it is three base64url
 * parts, each in canonical form (the encoding of what it decodes to, so that no two texts stand for
 * one token and a character changed anywhere, the unused bits of the last one included, is never
 * accepted); its header is exactly the one above ({@code none}, any other algorithm and any other
 * header parameter, such as a key reference, are refused before the key is used); the HMAC over its
 * first two parts, as sent, matches (compared in constant time); and its claims are those four,
 * with {@code sub} an identity id and {@code exp} later than the injected clock's now. Thread-safe.
 */
final class Tokens {
  static final JWSAlgorithm ALGORITHM = JWSAlgorithm.HS256;

  /** Longer than any token this class issues for a name of {@link Identities}' maximum length. */
  private static final int MAX_LENGTH = 2048;

  private static final Pattern COMPACT =
      Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
  private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
  private static final Set<String> HEADER = Set.of("alg", "typ");
  private static final Set<String> CLAIMS = Set.of("sub", "name", "iat", "exp");

  private final JWSSigner signer;
  private final JWSVerifier verifier;
  private final Clock clock;

  /**
   * @param secret at least 32 bytes
   */
  Tokens(byte[] secret, Clock clock) {
    if (secret.length < TokenSecret.BYTES) {
      throw new IllegalArgumentException(
          "a token secret is at least 256 bits; got " + secret.length * 8);
    }
    try {
      this.signer = new MACSigner(secret);
      this.verifier = new MACVerifier(secret);
    } catch (JOSEException e) {
      throw new IllegalArgumentException(
          "The token secret cannot key HMAC-SHA256: " + e.getMessage(), e);
    }
    this.clock = clock;
  }

  /** What a token is found to be. */
  sealed interface Checked {
    /**
     * Signed here, not expired: it speaks for this identity from {@code issued} until {@code
     * expires}, unless revoked ({@link Identities#revoked}).
     */
    record Valid(String id, String name, Instant issued, Instant expires) implements Checked {}

    /** Not to be trusted, and why, in words for the client. */
    record Invalid(String reason) implements Checked {}
  }

  /** A token for the identity, valid until {@code expires} (to the second, rounded down). */
  String issue(String id, String name, Instant expires) {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .subject(id)
            .claim("name", name)
            .issueTime(Date.from(Instant.ofEpochSecond(clock.instant().getEpochSecond())))
            .expirationTime(Date.from(Instant.ofEpochSecond(expires.getEpochSecond())))
            .build();
    SignedJWT jwt =
        new SignedJWT(new JWSHeader.Builder(ALGORITHM).type(JOSEObjectType.JWT).build(), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("A token cannot be signed with HS256: " + e.getMessage(), e);
    }
    return jwt.serialize();
  }

  /** Whether the token was signed with this secret, is well formed and has not expired. */
  Checked check(String token) {
    if (token.length() > MAX_LENGTH)
      return new Checked.Invalid("the bearer token is longer than any this gateway issues");
    if (!COMPACT.matcher(token).matches())
      return new Checked.Invalid(
          "the bearer token is not a JWT: header.payload.signature in base64url");
    SignedJWT jwt;
    try {
      Base64URL[] parts = SignedJWT.split(token);
      for (Base64URL part : parts) {
        if (!Base64URL.encode(part.decode()).toString().equals(part.toString())) {
          return new Checked.Invalid("the bearer token is not in canonical base64url");
        }
      }
      Header header = Header.parse(parts[0]);
      if (!ALGORITHM.equals(header.getAlgorithm())
          || !JOSEObjectType.JWT.equals(header.getType())
          || !header.getIncludedParams().equals(HEADER)) {
        return new Checked.Invalid(
            "the bearer token's header is not {\"alg\":\"HS256\",\"typ\":\"JWT\"}, the only one this gateway accepts");
      }
      jwt = new SignedJWT(parts[0], parts[1], parts[2]);
    } catch (ParseException e) {
      return new Checked.Invalid("the bearer token is not a JWT: its header is not JSON");
    }
    try {
      if (!jwt.verify(verifier))
        return new Checked.Invalid("the bearer token's signature does not match");
    } catch (JOSEException | IllegalStateException e) {
      return new Checked.Invalid("the bearer token's signature does not match");
    }
    return claims(jwt);
  }

  /**
   * The claims of a token whose signature matched: still checked, since a secret may sign a bad
   * one.
   */
  private Checked claims(SignedJWT jwt) {
    JWTClaimsSet claims;
    String name;
    try {
      claims = jwt.getJWTClaimsSet();
      name = claims.getStringClaim("name");
    } catch (ParseException e) {
      return new Checked.Invalid("the bearer token's claims are not sub, name, iat and exp");
    }
    if (!CLAIMS.containsAll(claims.getClaims().keySet())
        || claims.getSubject() == null
        || !ID.matcher(claims.getSubject()).matches()
        || name == null
        || claims.getIssueTime() == null
        || claims.getExpirationTime() == null) {
      return new Checked.Invalid("the bearer token's claims are not sub, name, iat and exp");
    }
    Instant expires = claims.getExpirationTime().toInstant();
    if (!clock.instant().isBefore(expires))
      return new Checked.Invalid("the bearer token expired at " + expires + "; get a new one");
    return new Checked.Valid(claims.getSubject(), name, claims.getIssueTime().toInstant(), expires);
  }
}
