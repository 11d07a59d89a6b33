package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import org.junit.jupiter.api.Test;

/** The tasks of one run, held until the engine takes them. */
class OutgoingTest {
  @Test
  void take_answersTheTasksInTheOrderSent() {
    Outgoing outgoing = new Outgoing();
    outgoing.task("b", "test.notes.note", Binding.VALUES.createObjectNode());
    outgoing.task("a", "test.notes.note", Binding.VALUES.createObjectNode());

    assertThat(outgoing.take()).extracting(Task::identity).containsExactly("b", "a");
  }

  @Test
  void task_afterTheRunIsOver_failsInsteadOfBeingLost() {
    Outgoing outgoing = new Outgoing();
    outgoing.take();

    assertThatThrownBy(
            () -> outgoing.task("a", "test.notes.note", Binding.VALUES.createObjectNode()))
        .isInstanceOfSatisfying(
            Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.SYSTEM))
        .hasMessageContaining("test.notes.note")
        .hasMessageContaining("after its operation answered");
    assertThat(outgoing.take()).isEmpty();
  }
}
