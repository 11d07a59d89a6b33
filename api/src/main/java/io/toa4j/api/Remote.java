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
   * Asks for an operation to run with nobody waiting; the task runs at least once, is retried when
   * it fails, and is parked when it keeps failing. Nothing leaves at this call: the task is held
   * with the attempt that sent it. When the operation commits a write, its tasks are committed in
   * that write's outbox entry and sent after the commit; when it commits nothing, they are sent
   * after it returns an output, before its caller is answered. A refusal, a failure or a lost
   * attempt sends none (docs/outbox.md, "Tasks").
   *
   * @throws Failure {@code ENDPOINT} when the component has no such operation, {@code SYSTEM} when
   *     the context is used after its operation answered
   */
  void task(String operation, Request request);
}
