package io.toa4j.spi;

/**
 * An open storage engine, holding the stores of the components a process hosts.
 *
 * <p>Thread-safe. Closing it releases every store it gave out.
 */
public interface Storage extends AutoCloseable {
  /**
   * The store of one component, created (and migrated) on first use.
   *
   * @param component the component's label, {@code namespace.name}
   */
  Store store(String component);

  /** Whether a commit is one transaction, so that rows written with a record share its fate. */
  boolean transactional();

  /** What this storage is, for messages: its engine and where it keeps data. */
  String describe();

  @Override
  void close();
}
