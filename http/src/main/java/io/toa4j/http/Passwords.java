package io.toa4j.http;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.atomic.LongAdder;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Password hashes: PBKDF2 with HMAC-SHA256 from the JDK, a 16-byte random salt per hash, a 32-byte
 * key, written with its parameters as {@code pbkdf2-sha256$<iterations>$<salt>$<key>} (salt and key
 * in base64), so the iteration count can rise later without breaking stored hashes.
 *
 * <p>{@value #ITERATIONS} iterations by default: OWASP's minimum for PBKDF2-HMAC-SHA256 (2023).
 * Slow on purpose: one derivation takes a fraction of a second, so verification is cached by the
 * caller ({@link Access}), not here. Comparison is constant-time ({@link MessageDigest#isEqual}).
 * Thread-safe.
 */
final class Passwords {
  static final int ITERATIONS = 600_000;
  static final String SCHEME = "pbkdf2-sha256";
  private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
  private static final int SALT_BYTES = 16;
  private static final int KEY_BYTES = 32;

  private final SecureRandom random;
  private final int iterations;
  private final LongAdder derivations = new LongAdder();
  private volatile String decoy; // made on first need: the command line never needs it

  Passwords(SecureRandom random) {
    this(random, ITERATIONS);
  }

  /** With another iteration count: for tests of the format, never below 1,000. */
  Passwords(SecureRandom random, int iterations) {
    if (iterations < 1_000)
      throw new IllegalArgumentException(
          "PBKDF2 needs at least 1,000 iterations; got " + iterations);
    this.random = random;
    this.iterations = iterations;
  }

  /** A new hash of the password, under a new salt. */
  String hash(char[] password) {
    byte[] salt = new byte[SALT_BYTES];
    random.nextBytes(salt);
    byte[] key = derive(password, salt, iterations);
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return SCHEME
        + "$"
        + iterations
        + "$"
        + b64.encodeToString(salt)
        + "$"
        + b64.encodeToString(key);
  }

  /**
   * Whether the password is the one hashed.
   *
   * @throws IllegalStateException when the stored hash is not in this format
   */
  boolean verify(char[] password, String hash) {
    String[] parts = hash.split("\\$", -1);
    try {
      if (parts.length != 4 || !parts[0].equals(SCHEME))
        throw new IllegalArgumentException("not " + SCHEME);
      int count = Integer.parseInt(parts[1]);
      byte[] salt = Base64.getDecoder().decode(parts[2]);
      byte[] expected = Base64.getDecoder().decode(parts[3]);
      if (count < 1 || salt.length == 0 || expected.length == 0)
        throw new IllegalArgumentException("empty parameters");
      return MessageDigest.isEqual(derive(password, salt, count), expected);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "A stored password hash is not "
              + SCHEME
              + "$<iterations>$<salt>$<key>: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Derives once for nothing, so that a name nobody holds costs as much time as a wrong password
   * and the answer's delay does not tell which names exist.
   */
  void decoy(char[] password) {
    if (decoy == null) decoy = hash(new char[] {'-'}); // a race makes two decoys; either serves
    verify(password, decoy);
  }

  /**
   * How many derivations ran, the decoy's included: what the verification cache saves is seen here.
   */
  long derivations() {
    return derivations.sum();
  }

  private byte[] derive(char[] password, byte[] salt, int count) {
    derivations.increment();
    PBEKeySpec spec = new PBEKeySpec(password, salt, count, KEY_BYTES * 8);
    try {
      return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "The JDK has no " + ALGORITHM + ", which every Java 17 provides", e);
    } finally {
      spec.clearPassword();
    }
  }
}
