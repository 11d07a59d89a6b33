package io.toa4j.api;

/** Another component, as reached from an operation's {@link Context}. */
public interface Remote {
  /**
   * Calls an operation and waits for its answer.
   *
   * @throws Failure when the call fails; nothing the callee did was committed
   */
  Reply call(String operation, Request request);
}
