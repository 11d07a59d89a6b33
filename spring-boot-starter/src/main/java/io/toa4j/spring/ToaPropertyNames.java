package io.toa4j.spring;

import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * Refuses, before the context is built, the {@code toa.*} properties that would otherwise be
 * ignored: a name that is none of the starter's (a misspelt {@code toa.compnents}) and an engine's
 * options with no engine named beside them. Spring binds what it knows and passes over the rest;
 * here a property that was written and does nothing would be a setting the application believes it
 * has.
 *
 * <p>Names are read from every property source but the process's environment: variables such as
 * {@code TOA_REQUIRE_SERVERS} or {@code TOA_POSTGRES_URL} are the tools' and the tests', and
 * Spring's relaxed binding would read them as {@code toa.require-servers}. Options without an
 * engine are refused from every source, the environment's {@code TOA_STORAGE_URL} too.
 */
final class ToaPropertyNames {
  /** The starter's properties, each name in Spring's uniform form (lower case, no dashes). */
  private static final Pattern KNOWN =
      Pattern.compile(
          "toa\\.("
              + "name|directory|state"
              + "|(components|host)(\\[\\d+\\])?"
              + "|(storage|bus)(\\.(engine|url|options\\..+))?"
              + "|gateway\\.(enabled|address|operatorrole)"
              + "|idempotency\\.attach)");

  private ToaPropertyNames() {}

  /**
   * Throws when a {@code toa.*} property cannot apply.
   *
   * @throws IllegalArgumentException naming the properties and what to write instead
   */
  static void refuseWhatCannotApply(Environment environment) {
    if (environment instanceof ConfigurableEnvironment configurable) refuseUnknown(configurable);
    Binder binder = Binder.get(environment);
    for (String engine : List.of("storage", "bus")) refuseOptionsWithoutEngine(binder, engine);
  }

  private static void refuseUnknown(ConfigurableEnvironment environment) {
    TreeSet<String> unknown = new TreeSet<>();
    ConfigurationPropertyName toa = ConfigurationPropertyName.of("toa");
    for (ConfigurationPropertySource source :
        ConfigurationPropertySources.from(environment.getPropertySources())) {
      if (fromTheEnvironment(source)
          || !(source instanceof IterableConfigurationPropertySource iterable)) continue;
      iterable.stream()
          .filter(toa::isAncestorOf)
          .map(ConfigurationPropertyName::toString)
          .filter(name -> !KNOWN.matcher(uniform(name)).matches())
          .forEach(unknown::add);
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          String.join(", ", unknown)
              + (unknown.size() == 1 ? " is" : " are")
              + " not a property of toa4j's starter, so it would do nothing; the properties are toa.name, toa.directory,"
              + " toa.components, toa.host, toa.state, toa.storage.engine, toa.storage.options.*, toa.storage.url,"
              + " toa.bus.engine, toa.bus.options.*, toa.bus.url, toa.gateway.enabled, toa.gateway.address,"
              + " toa.gateway.operator-role and toa.idempotency.attach (docs/spring-boot.md, \"Properties\")");
    }
  }

  private static void refuseOptionsWithoutEngine(Binder binder, String engine) {
    String prefix = "toa." + engine;
    if (EngineProperties.of(binder, prefix).isPresent()) return;
    TreeSet<String> options = new TreeSet<>();
    binder
        .bind(prefix + ".options", Bindable.mapOf(String.class, String.class))
        .ifBound(map -> map.keySet().forEach(key -> options.add(prefix + ".options." + key)));
    binder.bind(prefix + ".url", String.class).ifBound(url -> options.add(prefix + ".url"));
    if (options.isEmpty()) return;
    String example = "storage".equals(engine) ? "sqlite or postgres" : "embedded or rabbitmq";
    throw new IllegalArgumentException(
        String.join(", ", options)
            + (options.size() == 1 ? " is" : " are")
            + " set, and no engine is named for them: set "
            + prefix
            + ".engine ("
            + example
            + ")"
            + " beside them: options are read only with the engine they are for, and without one the context"
            + " folder's engine (or "
            + ("storage".equals(engine) ? "sqlite" : "embedded")
            + ", the default) runs without them");
  }

  private static boolean fromTheEnvironment(ConfigurationPropertySource source) {
    return source.getUnderlyingSource() instanceof PropertySource<?> underlying
        && StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(underlying.getName());
  }

  private static String uniform(String name) {
    return name.replace("-", "").toLowerCase(Locale.ROOT);
  }
}
