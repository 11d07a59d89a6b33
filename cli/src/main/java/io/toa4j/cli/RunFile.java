package io.toa4j.cli;

import io.toa4j.spi.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.LoggerFactory;

/**
 * {@code <context>/.toa/run.json}: written by {@code toa run} while it serves the context, read by
 * {@code toa call} to reach it. It holds the secret token of the control channel, so it is readable
 * by its owner only (0600, in the 0700 {@code .toa/}) where the file system has POSIX permissions.
 *
 * <p>Read and written with java.base alone: {@link Relay} reads it before any library is loaded.
 * The file is one JSON object of three members; the token is printable ASCII without quote or
 * backslash, so it needs no escaping either way.
 *
 * @param pid the serving process
 * @param port the control channel's port on 127.0.0.1
 * @param token the secret every call must present
 */
record RunFile(long pid, int port, String token) {
  private static final Pattern PID = member("pid", "(\\d{1,18})");
  private static final Pattern PORT = member("port", "(\\d{1,5})");
  private static final Pattern TOKEN = member("token", "\"([!#-\\[\\]-~]+)\"");

  RunFile {
    Objects.requireNonNull(token, "token");
    if (!token.matches("[!#-\\[\\]-~]+")) {
      throw new IllegalArgumentException(
          "A run file's token is printable ASCII without quote or backslash");
    }
  }

  private static Pattern member(String name, String value) {
    return Pattern.compile("\"" + name + "\"\\s*:\\s*" + value + "\\s*[,}]");
  }

  /** Where a context's run file is. */
  static Path path(Path context) {
    return context.resolve(".toa").resolve("run.json");
  }

  /**
   * The run file, if there is one that can be read. One that cannot (written by hand, cut short) is
   * as good as none: the call runs in-process and the next {@code toa run} replaces it.
   */
  static Optional<RunFile> read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // NoSuchFileException and malformed text included
    }
    Matcher pid = PID.matcher(text);
    Matcher port = PORT.matcher(text);
    Matcher token = TOKEN.matcher(text);
    if (!text.strip().endsWith("}")
        || !pid.find()
        || !port.find()
        || !token.find()
        || Integer.parseInt(port.group(1)) > 65535) {
      return Optional.empty();
    }
    return Optional.of(
        new RunFile(Long.parseLong(pid.group(1)), Integer.parseInt(port.group(1)), token.group(1)));
  }

  /** Whether the process that wrote it still runs (its channel may still not answer). */
  boolean alive() {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Writes the file at once: a reader sees the whole of it or nothing. */
  void write(Path file) {
    String json = "{\"pid\":" + pid + ",\"port\":" + port + ",\"token\":\"" + token + "\"}";
    try {
      OwnerOnly.folder(file.getParent(), LoggerFactory.getLogger(RunFile.class)::warn);
      Path staging =
          Files.createTempFile(file.getParent(), ".run-", ".json", OwnerOnly.fileAttributes(file));
      Files.writeString(staging, json, StandardCharsets.UTF_8);
      Files.move(
          staging, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + file, e);
    }
  }

  /** Removes the file if it is still this one (a later {@code toa run} may have replaced it). */
  void deleteFrom(Path file) {
    if (!read(file).filter(this::equals).isPresent()) return;
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot remove " + file, e);
    }
  }

  @Override
  public String toString() {
    return "RunFile[pid=" + pid + ", port=" + port + "]"; // never the token: it ends up in logs
  }
}
