package io.toa4j.cli;

import io.toa4j.spi.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code <context>/.toa/run.json}: written by {@code toa run} while it serves the context, read by
 * {@code toa call} to reach it. It holds the secret token of the control channel, so it is readable
 * by its owner only (0600, in the 0700 {@code .toa/}) where the file system has POSIX permissions.
 *
 * @param pid the serving process
 * @param port the control channel's port on 127.0.0.1
 * @param token the secret every call must present
 */
record RunFile(long pid, int port, String token) {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Logger LOG = LoggerFactory.getLogger(RunFile.class);

  RunFile {
    Objects.requireNonNull(token, "token");
  }

  /** Where a context's run file is. */
  static Path path(Path context) {
    return context.resolve(".toa").resolve("run.json");
  }

  /**
   * The run file, if there is one that can be read. One that cannot (written by hand, cut short)
   * is as good as none: the call runs in-process and the next {@code toa run} replaces it.
   */
  static Optional<RunFile> read(Path file) {
    try {
      JsonNode tree = JSON.readTree(Files.readAllBytes(file));
      if (tree == null || !tree.path("pid").canConvertToLong() || !tree.path("port").canConvertToInt() || !tree.path("token").isString()) {
        return Optional.empty();
      }
      return Optional.of(new RunFile(tree.get("pid").asLong(), tree.get("port").asInt(), tree.get("token").asString()));
    } catch (IOException | JacksonException e) {
      return Optional.empty(); // NoSuchFileException included
    }
  }

  /** Whether the process that wrote it still runs (its channel may still not answer). */
  boolean alive() {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Writes the file at once: a reader sees the whole of it or nothing. */
  void write(Path file) {
    ObjectNode tree = JSON.createObjectNode().put("pid", pid).put("port", port).put("token", token);
    try {
      OwnerOnly.folder(file.getParent(), LOG::warn);
      Path staging = Files.createTempFile(file.getParent(), ".run-", ".json", OwnerOnly.fileAttributes(file));
      Files.write(staging, JSON.writeValueAsBytes(tree));
      Files.move(staging, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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
