package io.toa4j.runtime;

import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.EntityDeclaration;
import io.toa4j.spi.Store;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/**
 * A loaded component: its manifest, its operations by name, its store if it keeps state, the events
 * it announces, and which of their labels someone in the context consumes.
 */
record Component(
    ComponentManifest manifest,
    Map<String, Operation> operations,
    Optional<Store> store,
    Announcements announcements,
    Set<String> consumed,
    String label) {

  /** With its label, {@code namespace.name}, made once: every call names it several times. */
  Component(
      ComponentManifest manifest,
      Map<String, Operation> operations,
      Optional<Store> store,
      Announcements announcements,
      Set<String> consumed) {
    this(manifest, operations, store, announcements, consumed, manifest.label());
  }

  /** Whether its writes keep an outbox entry: only when someone consumes one of its events. */
  boolean announces() {
    return !consumed.isEmpty();
  }

  Optional<EntityDeclaration> entity() {
    return manifest.entity();
  }

  /** What a record holds before its first write: a copy of {@code entity.blank}. */
  ObjectNode blank() {
    return manifest.entity().map(e -> e.blank().deepCopy()).orElseThrow();
  }
}
