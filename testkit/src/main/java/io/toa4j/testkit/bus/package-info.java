/**
 * The bus contract: {@link io.toa4j.testkit.bus.BusContract}, the behaviour every {@link
 * io.toa4j.spi.Bus} keeps, written once as JUnit 5 default test methods.
 */
package io.toa4j.testkit.bus;
