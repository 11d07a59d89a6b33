package io.toa4j.runtime;

import java.nio.charset.StandardCharsets;
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

  /** A fresh id that sorts by time: 12 hexadecimal digits of milliseconds, then 20 random ones. */
  static String ordered(long millis, RandomGenerator random) {
    byte[] bytes = new byte[10];
    random.nextBytes(bytes);
    return HEX.toHexDigits(millis).substring(4)
        + HEX.formatHex(bytes); // the low 48 bits: 12 digits
  }

  /** The identity of the {@code ordinal}-th call (from 1) made while serving {@code served}. */
  static String derive(String served, int ordinal) {
    return derive(served, Integer.toString(ordinal));
  }

  /**
   * An identity derived from another and a qualifier: an event's from its outbox entry and its
   * label; a delivery's from its message and the receiving queue.
   */
  static String derive(String identity, String qualifier) {
    byte[] digest =
        Fingerprints.digest().digest((identity + "/" + qualifier).getBytes(StandardCharsets.UTF_8));
    return HEX.formatHex(digest, 0, 16);
  }
}
