/**
 * The engine: boots a context, compiles and binds its components' code, and runs operations as
 * read, run, commit.
 *
 * <p>{@link io.toa4j.runtime.Application} is the entry point; {@code Engine} is the one class that
 * reads, runs and commits, and states its invariants at the top.
 */
package io.toa4j.runtime;
