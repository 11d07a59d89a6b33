package io.toa4j.runtime;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.random.RandomGenerator;

/**
 * Ids of records and identities of calls: 32 lowercase hexadecimal characters.
 *
 * <p>Fresh ones are minted only at the edges (a new record, a call from the command line); a call
 * made while serving another is derived from the served identity and the ordinal of the call, so
 * the same run made again makes calls with the same identities.
 */
final class Identities {
  private static final HexFormat HEX = HexFormat.of();

  private Identities() {}

  static String fresh(RandomGenerator random) {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return HEX.formatHex(bytes);
  }

  /** The identity of the {@code ordinal}-th call (from 1) made while serving {@code served}. */
  static String derive(String served, int ordinal) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] digest = sha.digest((served + "/" + ordinal).getBytes(StandardCharsets.UTF_8));
      return HEX.formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
