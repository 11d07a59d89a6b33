package io.toa4j.http;

import io.toa4j.runtime.StartupException;
import io.toa4j.spi.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the secret that signs bearer tokens is kept: outside the records, so whoever reads the
 * database (a PostgreSQL role granted the records, a copy of a SQLite file) cannot sign a token.
 *
 * <p>The first of these that is set wins:
 *
 * <ol>
 *   <li>{@code TOA_TOKEN_SECRET}: the secret itself, base64 of at least 32 bytes;
 *   <li>{@code TOA_TOKEN_SECRET_FILE}: a file the operator made, holding the same (whitespace
 *       around it is ignored); it must exist;
 *   <li>{@code <context>/.toa/secrets/token.key}: made on first need, 32 bytes from {@link
 *       SecureRandom} in base64, in a file 0600 from its creation inside a folder 0700; the file
 *       appears whole or not at all (written aside, then linked into place), and when two processes
 *       make it at once, the first link wins and both use that one.
 * </ol>
 *
 * A secret shorter than 256 bits, or not base64, is refused with a message that names where it was
 * found (never its value). Replacing it (a new file, a new variable) and restarting invalidates
 * every token signed before. Thread-safe; every call reads afresh.
 */
final class TokenSecret {
  static final String VARIABLE = "TOA_TOKEN_SECRET";
  static final String FILE_VARIABLE = "TOA_TOKEN_SECRET_FILE";

  /** The secret's length when it is made here, and the least accepted: 256 bits. */
  static final int BYTES = 32;

  private static final Logger LOG = LoggerFactory.getLogger(TokenSecret.class);

  private final Path stateDirectory;
  private final Map<String, String> environment;
  private final SecureRandom random;

  /** The secret of a context's state folder and environment; the random makes a new one. */
  TokenSecret(Path stateDirectory, Map<String, String> environment, SecureRandom random) {
    this.stateDirectory = Objects.requireNonNull(stateDirectory, "stateDirectory");
    this.environment = Map.copyOf(environment);
    this.random = Objects.requireNonNull(random, "random");
  }

  /** A secret and where it was found, for messages (never the secret itself). */
  record Loaded(byte[] key, String where) {}

  /** Where the default secret is kept in a context's state folder. */
  static Path defaultFile(Path stateDirectory) {
    return stateDirectory.resolve("secrets").resolve("token.key");
  }

  /**
   * The secret, read, or made and kept the first time.
   *
   * @throws StartupException when the variable or the file holds no usable secret, or the file
   *     cannot be read or made, saying where and what to do
   */
  Loaded load() {
    String value = environment.get(VARIABLE);
    if (value != null && !value.isBlank())
      return new Loaded(decode(value, "the variable " + VARIABLE), "the variable " + VARIABLE);
    String named = environment.get(FILE_VARIABLE);
    if (named != null && !named.isBlank()) {
      Path file = Path.of(named.strip());
      return new Loaded(
          read(file, "the file " + file + " (named by " + FILE_VARIABLE + ")"), file.toString());
    }
    Path file = defaultFile(stateDirectory);
    return new Loaded(made(file), file.toString());
  }

  private byte[] made(Path file) {
    OwnerOnly.folder(stateDirectory, LOG::warn);
    OwnerOnly.folder(file.getParent(), LOG::warn);
    if (Files.exists(file)) return read(file, "the file " + file);
    byte[] key = new byte[BYTES];
    random.nextBytes(key);
    Path staging = null;
    try {
      staging =
          Files.createTempFile(file.getParent(), ".token-", ".key", OwnerOnly.fileAttributes(file));
      try (FileChannel out = FileChannel.open(staging, StandardOpenOption.WRITE)) {
        out.write(
            ByteBuffer.wrap(
                (Base64.getEncoder().encodeToString(key) + "\n")
                    .getBytes(StandardCharsets.US_ASCII)));
        out.force(true);
      }
      link(staging, file);
    } catch (FileAlreadyExistsException e) {
      return read(file, "the file " + file); // another process made it first: theirs is the one
    } catch (IOException e) {
      throw new StartupException(
          "Cannot make the token secret "
              + file
              + ": "
              + e
              + "; check that the folder is writable, or name a"
              + " secret with "
              + FILE_VARIABLE
              + " or "
              + VARIABLE,
          e);
    } finally {
      deleteQuietly(staging);
    }
    LOG.info("Made a new token secret in {}", file);
    return key;
  }

  /**
   * Puts the written file in place, failing if one is there already; a rename where links are not
   * supported.
   */
  private static void link(Path staging, Path file) throws IOException {
    try {
      Files.createLink(file, staging);
    } catch (UnsupportedOperationException e) {
      Files.move(staging, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
  }

  private static byte[] read(Path file, String where) {
    OwnerOnly.check(file, LOG::warn);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new StartupException(
          where
              + " does not exist; make it with a secret of at least "
              + BYTES
              + " random bytes in base64, such as: (umask 077; openssl rand -base64 32 > "
              + file
              + ")",
          e);
    } catch (IOException | UncheckedIOException e) {
      throw new StartupException("Cannot read the token secret from " + where + ": " + e, e);
    }
    return decode(text, where);
  }

  private static byte[] decode(String text, String where) {
    String trimmed = text.strip();
    byte[] key;
    try {
      key =
          trimmed.indexOf('-') >= 0 || trimmed.indexOf('_') >= 0
              ? Base64.getUrlDecoder().decode(trimmed)
              : Base64.getDecoder().decode(trimmed);
    } catch (IllegalArgumentException e) {
      throw new StartupException(
          where
              + " does not hold a token secret in base64; write at least "
              + BYTES
              + " random bytes in base64, such as openssl rand -base64 32 prints");
    }
    if (key.length < BYTES) {
      throw new StartupException(
          where
              + " holds a token secret of "
              + key.length * 8
              + " bits; it needs at least "
              + BYTES * 8
              + ": write at least "
              + BYTES
              + " random bytes in base64, such as openssl rand -base64 32 prints");
    }
    return key;
  }

  private static void deleteQuietly(Path staging) {
    if (staging == null) return;
    try {
      Files.deleteIfExists(staging);
    } catch (IOException e) {
      LOG.debug("Could not remove {}: {}", staging, e.toString()); // a hidden leftover, never read
    }
  }
}
