package io.toa4j.runtime;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Record turns ({@link Turns}) explored by Lincheck's model checker: calls on one record that take
 * its turn, nest a second take in the one they hold, close their turn twice, or fail in what they
 * do before waiting (an {@code Error} included), in every interleaving. Whatever the interleaving,
 * two calls never hold the turn at once, and once every call left no line is kept: a line left
 * behind would hold the record's next callers for nothing. The calls do not wait (a wait of zero),
 * so the model checker explores the bookkeeping of the line, not time.
 */
public class TurnsLincheckTest {
  private static final String RECORD = "test.sinks 0123";
  private final Turns turns = new Turns(Duration.ZERO);
  private final AtomicInteger holding = new AtomicInteger();
  private final AtomicBoolean overlapped = new AtomicBoolean();

  @Operation
  public void take() {
    try (Turns.Turn turn = turns.take(RECORD)) {
      held(turn);
    }
  }

  @Operation
  public void takeNested() {
    try (Turns.Turn outer = turns.take(RECORD)) {
      held(outer);
      try (Turns.Turn inner = turns.take(RECORD)) {
        if (outer != Turns.NONE && inner == Turns.NONE)
          throw new IllegalStateException("a nested call did not get the turn its thread holds");
      }
    }
  }

  /**
   * A turn closed twice (a close in a {@code finally} and again by its {@code try}): the second
   * does nothing.
   */
  @Operation
  public void takeClosingTwice() {
    try (Turns.Turn turn = turns.take(RECORD)) {
      held(turn);
      turn.close();
    }
  }

  @Operation
  public void takeFailingBeforeItWaits() {
    try (Turns.Turn turn =
        turns.take(
            RECORD,
            () -> {
              throw new StackOverflowError("looking up the call's answer");
            })) {
      held(turn);
    } catch (StackOverflowError expected) {
      // thrown only when another call held the turn: this one fails without it
    }
  }

  private void held(Turns.Turn turn) {
    if (turn == Turns.NONE) return;
    if (holding.incrementAndGet() > 1) overlapped.set(true);
    turn.hand(null);
    holding.decrementAndGet();
  }

  @Validate
  public void neverTwoHolders_andNoLineLeft() {
    if (overlapped.get())
      throw new IllegalStateException("two calls held the record's turn at once");
    if (turns.records() != 0 || turns.calls(RECORD) != 0) {
      throw new IllegalStateException(
          turns.records() + " lines left, " + turns.calls(RECORD) + " calls on the record");
    }
  }

  @Test
  void turns_underEveryInterleaving_oneHolderAtATime_andNothingLeft() {
    new ModelCheckingOptions()
        .iterations(
            10) // a fair lock is many shared accesses: fewer scenarios keep it to a minute or so
        .invocationsPerIteration(500)
        .threads(3)
        .actorsPerThread(2)
        .check(TurnsLincheckTest.class);
  }
}
