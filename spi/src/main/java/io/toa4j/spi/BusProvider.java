package io.toa4j.spi;

/**
 * Opens buses of one kind. Found with {@link java.util.ServiceLoader}; register an implementation
 * in {@code META-INF/services/io.toa4j.spi.BusProvider}.
 */
public interface BusProvider {
  /** The bus's name as a context states it: {@code embedded}, {@code rabbitmq}. */
  String name();

  Bus open(BusSettings settings);
}
