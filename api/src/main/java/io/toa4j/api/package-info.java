/**
 * What a component author compiles against.
 *
 * <p>An operation is a class named after it ({@code operations/Credit.java} for {@code credit})
 * that implements one of {@link Transition}, {@link Observation}, {@link Assignment}, {@link
 * Effect} or {@link Computation}. Its input is the author's own record, its entity the author's own
 * subclass of {@link Entry}. It changes the entry as if it ran once, and returns the entry, a
 * value, or a {@link Refusal}. A refusal is returned, never thrown; anything thrown is a failure.
 *
 * <p>This package has no third-party dependencies, so an operation can be unit-tested by calling it
 * directly with an input and an entity built by hand.
 */
@NullMarked
package io.toa4j.api;

import org.jspecify.annotations.NullMarked;
