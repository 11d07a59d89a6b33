package io.toa4j.spring;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * An engine as the properties under {@code toa.storage} or {@code toa.bus} name it: {@code .engine}
 * and {@code .options.*}, as a context file's {@code storage:} holds them, or the engine alone as
 * the value of {@code toa.storage} itself, with {@code .url} beside it. The second form is what the
 * environment's {@code TOA_STORAGE} and {@code TOA_STORAGE_URL} become in Spring's relaxed binding,
 * so those variables mean here what they mean to {@code toa run}. Read with a {@link Binder} rather
 * than bound to a record, which cannot be both a value and a mapping.
 *
 * @param engine its name ({@code sqlite}, {@code postgres}, {@code embedded}, {@code rabbitmq})
 * @param options its own options; the engine refuses one it does not know, by name
 */
record EngineProperties(String engine, Map<String, String> options) {
  EngineProperties {
    options = Map.copyOf(options);
  }

  /** The engine the properties under {@code prefix} name; empty when they name none. */
  static Optional<EngineProperties> of(Binder binder, String prefix) {
    Optional<String> engine =
        Optional.ofNullable(binder.bind(prefix + ".engine", String.class).orElse(null))
            .or(() -> Optional.ofNullable(binder.bind(prefix, String.class).orElse(null)))
            .map(String::strip)
            .filter(name -> !name.isEmpty());
    if (engine.isEmpty()) return Optional.empty();
    Map<String, String> options =
        new TreeMap<>(
            binder
                .bind(prefix + ".options", Bindable.mapOf(String.class, String.class))
                .orElse(Map.of()));
    binder
        .bind(prefix + ".url", String.class)
        .ifBound(url -> options.putIfAbsent("url", url.strip()));
    return Optional.of(new EngineProperties(engine.get(), options));
  }
}
