package io.toa4j.manifest;

import java.nio.file.Path;
import java.util.List;

/**
 * The application's {@code context.toa.yaml}, validated, with its components.
 *
 * @param directory the context's folder; state lives under its {@code .toa/} folder
 * @param file the context file
 * @param name the application's name
 * @param storage the storage engine's name ({@code sqlite} unless the context says otherwise)
 * @param inboxRetentionSeconds {@code inbox.retention}: how long a {@code once} call is
 *     remembered when its operation states no time (3600 unless the context says otherwise; at
 *     least 600)
 * @param components the components found by the context's {@code components} patterns (default
 *     {@code components/*}), sorted by label
 */
public record ContextManifest(
    Path directory,
    Path file,
    String name,
    String storage,
    long inboxRetentionSeconds,
    List<ComponentManifest> components) {

  /** The default {@code inbox.retention}, in seconds. */
  public static final long DEFAULT_INBOX_RETENTION_SECONDS = 3600;
}
