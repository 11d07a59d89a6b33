/**
 * The engine: builds a context, compiles and binds its components' code, and runs operations as
 * read, run, commit.
 *
 * <p>{@link io.toa4j.runtime.Toa#builder()} is the entry point: it makes a {@link
 * io.toa4j.runtime.Toa} with three faces (calls, {@link io.toa4j.runtime.Admin admin}, close).
 * {@code Assembly} compiles and binds, {@code Routing} routes calls and gives operations their
 * context, {@code Engine} is the one class that reads, runs and commits, and states its invariants
 * at the top.
 */
package io.toa4j.runtime;
