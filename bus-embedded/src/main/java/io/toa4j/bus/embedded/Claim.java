package io.toa4j.bus.embedded;

import io.toa4j.spi.Delivery;

/**
 * A message taken from its queue for one delivery, its attempt already counted in the file.
 *
 * @param seq the message's row, which is also its parked id
 */
record Claim(long seq, Delivery delivery) {}
