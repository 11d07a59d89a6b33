package io.toa4j.manifest;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * The application's {@code context.toa.yaml}, validated, with its components.
 *
 * @param directory the context's folder; state lives under its {@code .toa/} folder
 * @param file the context file
 * @param name the application's name
 * @param storage the storage engine and its options ({@code sqlite} unless the context says
 *     otherwise)
 * @param bus the bus and its options ({@code embedded} unless the context says otherwise)
 * @param inboxRetentionSeconds {@code inbox.retention}: how long a {@code once} call is remembered
 *     when its operation states no time (3600 unless the context says otherwise; at least 600)
 * @param inboxRememberSeconds {@code inbox.remember}: how long the record that a {@code once} call
 *     was answered is kept when its operation states no time, so that a repeat after its answer's
 *     window is told so rather than run (30 days unless the context says otherwise; at least 600;
 *     never shorter than the answer's window)
 * @param retryDelaysSeconds {@code delivery.retries}: the waits before each retry of a message
 *     whose handling failed; a message is parked after one attempt more than there are delays
 * @param outboxRetentionSeconds {@code outbox.retention}: how long published outbox entries are
 *     kept before they are removed (unpublished ones are never removed)
 * @param components the components found by the context's {@code components} patterns (default
 *     {@code components/*}), sorted by label
 * @param configuration {@code configuration}: the values the context gives each component that
 *     declares a configuration, by label; a secret is still its {@code $NAME} here
 */
public record ContextManifest(
    Path directory,
    Path file,
    String name,
    EngineDeclaration storage,
    EngineDeclaration bus,
    long inboxRetentionSeconds,
    long inboxRememberSeconds,
    List<Long> retryDelaysSeconds,
    long outboxRetentionSeconds,
    List<ComponentManifest> components,
    Map<String, ObjectNode> configuration) {

  public ContextManifest {
    Map<String, ObjectNode> copied = new TreeMap<>();
    configuration.forEach((label, values) -> copied.put(label, values.deepCopy()));
    configuration = java.util.Collections.unmodifiableMap(copied);
  }

  /** The values the context gives the component, a copy of the caller's own; empty when none. */
  public java.util.Optional<ObjectNode> configuration(String label) {
    return java.util.Optional.ofNullable(configuration.get(label)).map(ObjectNode::deepCopy);
  }

  /** The default {@code inbox.retention}, in seconds. */
  public static final long DEFAULT_INBOX_RETENTION_SECONDS = 3600;

  /** The default {@code inbox.remember}, in seconds: 30 days. */
  public static final long DEFAULT_INBOX_REMEMBER_SECONDS = 30 * 86_400;

  /** The default {@code delivery.retries}: four retries, so five attempts in all. */
  public static final List<Long> DEFAULT_RETRY_DELAYS_SECONDS = List.of(1L, 10L, 30L, 90L);

  /** The default {@code outbox.retention}, in seconds: a day. */
  public static final long DEFAULT_OUTBOX_RETENTION_SECONDS = 86_400;

  /** The storage engine of a context that names none. */
  public static final String DEFAULT_STORAGE = "sqlite";

  /** The bus of a context that names none. */
  public static final String DEFAULT_BUS = "embedded";
}
