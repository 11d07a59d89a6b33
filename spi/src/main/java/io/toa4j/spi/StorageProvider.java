package io.toa4j.spi;

/**
 * Opens storages of one engine. Found with {@link java.util.ServiceLoader}; register an
 * implementation in {@code META-INF/services/io.toa4j.spi.StorageProvider}.
 */
public interface StorageProvider {
  /** The engine's name as a context states it: {@code sqlite}, {@code postgres}. */
  String name();

  /** Opens a storage for a context. */
  Storage open(StorageSettings settings);
}
