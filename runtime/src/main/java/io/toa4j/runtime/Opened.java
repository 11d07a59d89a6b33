package io.toa4j.runtime;

import java.util.function.Supplier;

/**
 * An engine opened at most once: at once, or when first needed. Closing closes it only if it was
 * opened; asking for it after closing fails. Thread-safe.
 */
final class Opened<T extends AutoCloseable> {
  private final Supplier<T> open;
  private T value;
  private boolean closed;

  private Opened(Supplier<T> open, T value) {
    this.open = open;
    this.value = value;
  }

  /** One already open. */
  static <T extends AutoCloseable> Opened<T> now(T value) {
    return new Opened<>(() -> value, value);
  }

  /** One opened by the first {@link #get()}. */
  static <T extends AutoCloseable> Opened<T> later(Supplier<T> open) {
    return new Opened<>(open, null);
  }

  synchronized T get() {
    if (closed) throw new IllegalStateException("the context is closed");
    if (value == null) value = open.get();
    return value;
  }

  synchronized void close() {
    closed = true;
    if (value == null) return;
    try {
      value.close();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
