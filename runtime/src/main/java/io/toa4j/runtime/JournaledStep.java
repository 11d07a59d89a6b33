package io.toa4j.runtime;

import java.time.Instant;

/**
 * A step of a continuous run as its journal keeps it ({@link Admin#journal}): what it asked, when
 * it was answered, and how large its answer is.
 *
 * @param asked its kind and what it asked, such as {@code call fulfilment.couriers.book
 *     {"input":...} #1}: the occurrence among equal asks ends it
 * @param bytes the size of its answer, as JSON
 */
public record JournaledStep(String asked, Instant at, int bytes) {}
