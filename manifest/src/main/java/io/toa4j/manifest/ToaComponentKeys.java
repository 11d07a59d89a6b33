package io.toa4j.manifest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The keys of Toa's {@code manifest.toa.yaml} that toa4j does not read, each with what toa4j has in
 * its place or that it has nothing (docs/manifest.md, "Differences from Toa"). A manifest written
 * for Toa is refused at the first such key with that equivalent, rather than as an unknown key.
 */
final class ToaComponentKeys {
  private static final String NONE = "there is none in toa4j";
  private static final Map<String, String> EQUIVALENTS = new LinkedHashMap<>();

  static {
    EQUIVALENTS.put(
        "origins",
        "governed outbound HTTP; "
            + NONE
            + ": an operation that reaches"
            + " another system calls it with a client of its own and records the fact under that"
            + " system's id (docs/delivery.md)");
    EQUIVALENTS.put(
        "prototype",
        "a prototype whose declarations the component inherits; "
            + NONE
            + ": each manifest declares its own operations (prototype: null, no prototype, is read)");
    EQUIVALENTS.put("extensions", "the settings of Toa's extensions; toa4j reads none of them");
    EQUIVALENTS.put(
        "storages", "BLOB storages; " + NONE + " (entity: is what the component" + " keeps)");
    EQUIVALENTS.put("stash", "a shared cache; " + NONE);
    EQUIVALENTS.put("realtime", "realtime streams; " + NONE);
    EQUIVALENTS.put(
        "queues",
        "queues of an extension; "
            + NONE
            + ": receivers: consume the"
            + " events of components, and operations send tasks");
    EQUIVALENTS.put(
        "bridge",
        "the language an operation is written in; toa4j's operations are"
            + " Java classes under operations/");
    EQUIVALENTS.put(
        "build",
        "image build settings; toa4j builds no images: a component is"
            + " compiled from its folder when its context starts");
  }

  private ToaComponentKeys() {}

  /**
   * Why {@code key}, a key Toa reads at the top of a manifest, is not read here; empty when Toa has
   * no such key either.
   */
  static Optional<String> refusal(String key, String line) {
    return Optional.ofNullable(EQUIVALENTS.get(key))
        .map(equivalent -> "Toa's '" + key + "' is not read" + line + ": " + equivalent);
  }
}
