/**
 * The storage contract: what every {@link io.toa4j.spi.Storage} adapter must do, written once as
 * {@link io.toa4j.tck.storage.StorageContract} and run by each adapter's own test against its real
 * engine.
 */
package io.toa4j.tck.storage;
