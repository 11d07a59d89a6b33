/**
 * What an engine adapter implements: storage for components' records with their outbox ({@link
 * io.toa4j.spi.Storage}), and a bus for events, tasks and calls ({@link io.toa4j.spi.Bus}).
 *
 * <p>Adapters are found with {@link java.util.ServiceLoader} by the name a context gives ({@code
 * storage: sqlite}, {@code bus: embedded}). They know this package and their driver, nothing of the
 * engine. Expected outcomes (a lost compare-and-swap) are values; failures are unchecked
 * exceptions.
 */
@NullMarked
package io.toa4j.spi;

import org.jspecify.annotations.NullMarked;
