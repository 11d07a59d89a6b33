package io.toa4j.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.toa4j.runtime.Toa;
import io.toa4j.runtime.ToaBuilder;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Builds a running context from the {@code toa.*} properties, with the builder, and nothing else.
 */
final class ToaContexts {
  private ToaContexts() {}

  /**
   * The builder the properties describe: the folder or the class-path components, the engines and
   * their options ({@link EngineProperties}, read with the binder), the components to host, and the
   * application's meter registry.
   *
   * @throws IllegalArgumentException naming the property when they describe no context
   */
  static ToaBuilder builder(
      ToaProperties properties, Binder binder, Optional<MeterRegistry> registry) {
    if (properties.directory() == null && properties.components().isEmpty()) {
      throw new IllegalArgumentException(
          "toa.directory or toa.components must be set: a context folder, or the labels of the components on the class path"
              + " (such as toa.components=billing.topups,billing.wallets)");
    }
    if (properties.directory() == null && blank(properties.name())) {
      throw new IllegalArgumentException(
          "toa.name must be set when the context is not read from toa.directory: the context's name, such as shop");
    }
    ToaBuilder builder = Toa.builder();
    if (properties.directory() != null) builder.directory(properties.directory());
    if (!blank(properties.name())) builder.name(properties.name().strip());
    properties.components().forEach(builder::componentOnClassPath);
    EngineProperties.of(binder, "toa.storage")
        .ifPresent(e -> builder.storage(e.engine(), e.options()));
    EngineProperties.of(binder, "toa.bus").ifPresent(e -> builder.bus(e.engine(), e.options()));
    if (properties.state() != null) builder.state(properties.state());
    if (!properties.host().isEmpty()) builder.host(properties.host());
    registry.ifPresent(builder::meterRegistry);
    return builder;
  }

  private static boolean blank(String text) {
    return text == null || text.isBlank();
  }
}
