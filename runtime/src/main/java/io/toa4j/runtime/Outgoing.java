package io.toa4j.runtime;

import io.toa4j.api.Failure;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The tasks one run of an operation sends, held until the run's outcome is known: they leave with
 * its commit (a transition, an assignment) or after its output (an operation that commits nothing),
 * and never when it refused, threw, discarded or lost its compare-and-swap.
 *
 * <p>One per attempt. Once the engine has taken the tasks, a task sent through the same context
 * fails: the run it belonged to is over. Thread-safe.
 */
final class Outgoing {
  private final List<Task> tasks = new ArrayList<>();
  private boolean taken;

  /**
   * Holds a task of the run.
   *
   * @throws Failure with code SYSTEM when the run is over: its operation answered already
   */
  synchronized void task(String identity, String endpoint, JsonNode request) {
    if (taken) {
      throw new Failure(
          Failure.Code.SYSTEM,
          "a task to "
              + endpoint
              + " was sent after its operation answered, so it would never leave; send tasks before"
              + " returning");
    }
    tasks.add(new Task(identity, endpoint, request));
  }

  /** The tasks the run sent, in order; the run is over after this. */
  synchronized List<Task> take() {
    taken = true;
    return List.copyOf(tasks);
  }
}
