/**
 * The embedded bus: durable queues in one SQLite file, {@code <stateDirectory>/bus.db}, consumed by
 * the process that opened it.
 *
 * <p>Found with {@link java.util.ServiceLoader} as {@code bus: embedded}; the only public type is
 * {@link io.toa4j.bus.embedded.EmbeddedBusProvider}. The design notes are in the module's README.
 */
package io.toa4j.bus.embedded;
