package io.toa4j.spi;

import java.util.Set;

/**
 * Opens buses of one kind. Found with {@link java.util.ServiceLoader}; register an implementation
 * in {@code META-INF/services/io.toa4j.spi.BusProvider}.
 */
public interface BusProvider {
  /** The bus's name as a context states it: {@code embedded}, {@code rabbitmq}. */
  String name();

  /**
   * What every bus of this kind does, known without opening one: {@link
   * Bus.Capability#DISTRIBUTED}, above all, which decides where a context's components may run
   * before its bus is opened. A bus it opens has these, and may have more that its options give it
   * ({@link Bus#capabilities()}).
   */
  Set<Bus.Capability> capabilities();

  Bus open(BusSettings settings);
}
