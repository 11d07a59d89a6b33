package io.toa4j.api;

/**
 * Adapts an event to a call of a local operation: a class in the receiving component's {@code
 * receivers/} folder, named after the event's label in camel case ({@code
 * receivers/BillingTopupsPaid.java} for {@code billing.topups.paid}). Without such a class, the
 * operation is called with the payload as its input.
 *
 * @param <P> the payload: the author's own record, shaped like what the event carries
 */
public interface Receiver<P> {
  /** Whether to act on this event; a skipped event is done. All are acted on by default. */
  default boolean condition(P payload) {
    return true;
  }

  /** The request made to the operation; {@code { input: payload }} by default. */
  default Request request(P payload) {
    return Request.input(payload);
  }
}
