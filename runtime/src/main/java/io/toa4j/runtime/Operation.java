package io.toa4j.runtime;

import io.toa4j.api.Entry;
import io.toa4j.manifest.OperationDeclaration;
import io.toa4j.manifest.OperationType;
import java.util.Optional;

/**
 * An operation ready to run: its declaration, its type, and, for an authored one, the object that
 * runs it with the classes its input and entity bind to. Generic operations ({@code observe},
 * {@code enumerate}, {@code assign}, a declared {@code transit}, and any operation that forwards to
 * one of them) have no code: the engine runs them itself.
 */
record Operation(
    String name, OperationType type, OperationDeclaration declaration, Optional<Code> code) {

  /**
   * @param instance the author's object implementing the operation's kind
   * @param input the class the input binds to; empty when the operation takes none
   * @param entity the entity class, for transitions and observations
   */
  record Code(Object instance, Optional<Class<?>> input, Optional<Class<? extends Entry>> entity) {}

  boolean generic() {
    return code.isEmpty();
  }

  /** The generic implementation a generic operation runs: {@code transit}, {@code observe}, ... */
  String implementation() {
    return declaration.forward().orElse(name);
  }
}
