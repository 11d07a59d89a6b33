package io.toa4j.api;

/** Another component, as reached from an operation's {@link Context}. */
public interface Remote {
  /**
   * Calls an operation and waits for its answer.
   *
   * @throws Failure when the call fails; nothing the callee did was committed
   */
  Reply call(String operation, Request request);

  /**
   * Asks for an operation to run with nobody waiting. Returns once the task is durably enqueued;
   * the task runs at least once, is retried when it fails, and is parked when it keeps failing.
   *
   * @throws Failure when the task could not be enqueued (it may or may not have been)
   */
  void task(String operation, Request request);
}
