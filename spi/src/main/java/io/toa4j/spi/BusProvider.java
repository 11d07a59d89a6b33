package io.toa4j.spi;

/**
 * Opens buses of one kind. Found with {@link java.util.ServiceLoader}; register an implementation
 * in {@code META-INF/services/io.toa4j.spi.BusProvider}.
 */
public interface BusProvider {
  /** The bus's name as a context states it: {@code embedded}, {@code rabbitmq}. */
  String name();

  /**
   * Whether processes other than the one that opens a bus of this kind can consume and serve its
   * queues: a fact of the kind, known without opening one. Equal to {@link Bus#distributed()} of
   * every bus it opens.
   */
  boolean distributed();

  Bus open(BusSettings settings);
}
