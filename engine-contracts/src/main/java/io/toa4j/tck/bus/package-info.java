/**
 * The bus contracts, written once as JUnit default test methods: {@link
 * io.toa4j.tck.bus.BusContract}, what every {@link io.toa4j.spi.Bus} keeps, and one contract per
 * role a bus may have ({@link io.toa4j.tck.bus.CallsContract}, {@link
 * io.toa4j.tck.bus.ParkingContract}).
 */
package io.toa4j.tck.bus;
