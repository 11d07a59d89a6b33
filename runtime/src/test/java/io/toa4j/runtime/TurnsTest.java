package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lines of {@link Turns} themselves: turns in the order asked, a bounded wait, the thread that
 * holds a turn taking it again, and nothing kept for a record nobody waits for. Turns on whole
 * contexts, on every pair of engines, are the engine kit's {@code TurnsContract}.
 */
class TurnsTest {
  static final String ACCOUNT = "0123456789abcdef0123456789abcdef";
  static final String RECORD = "test.ledger " + ACCOUNT;

  @Test
  void turnsAreGiven_inTheOrderTheCallsAsked() throws Exception {
    Turns turns = new Turns(Duration.ofMinutes(1));
    List<Integer> order = new CopyOnWriteArrayList<>();
    List<CompletableFuture<Void>> callers = new ArrayList<>();
    try (Turns.Turn first = turns.take(RECORD)) {
      for (int i = 1; i <= 6; i++) {
        int caller = i;
        callers.add(
            CompletableFuture.runAsync(
                () -> {
                  try (Turns.Turn turn = turns.take(RECORD)) {
                    order.add(caller);
                  }
                },
                runnable -> new Thread(runnable).start()));
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> turns.calls(RECORD) == caller + 1); // this one waits in line
      }
      assertThat(order).as("no one goes while the first holds the turn").isEmpty();
    }
    CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    assertThat(order).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(turns.records()).as("lines of records nobody waits for").isZero();
  }

  @Test
  void aCallThatWaited_isHandedTheRecordAsTheCallBeforeItCommittedIt_andLooksUpMeanwhile()
      throws Exception {
    Turns turns = new Turns(Duration.ofMinutes(1));
    io.toa4j.spi.StoredRecord committed =
        new io.toa4j.spi.StoredRecord(ACCOUNT, 7, 1, 2, new io.toa4j.spi.Json("{\"balance\":7}"));
    java.util.concurrent.atomic.AtomicBoolean lookedUp =
        new java.util.concurrent.atomic.AtomicBoolean();
    CompletableFuture<java.util.Optional<io.toa4j.spi.StoredRecord>> waiter;
    try (Turns.Turn first =
        turns.take(
            RECORD,
            () -> {
              throw new AssertionError("the first call does not wait");
            })) {
      assertThat(first.handed()).as("nobody handed anything to a call that did not wait").isEmpty();
      waiter =
          CompletableFuture.supplyAsync(
              () -> {
                try (Turns.Turn next = turns.take(RECORD, () -> lookedUp.set(true))) {
                  return next.handed();
                }
              },
              runnable -> new Thread(runnable).start());
      await().atMost(Duration.ofSeconds(10)).until(() -> turns.calls(RECORD) == 2);
      first.hand(committed);
    }
    assertThat(waiter.get(10, TimeUnit.SECONDS)).contains(committed);
    assertThat(lookedUp)
        .as("it looked up what it reads beside the record while it waited")
        .isTrue();
    try (Turns.Turn alone = turns.take(RECORD)) {
      assertThat(alone.handed()).as("a call that did not wait reads for itself").isEmpty();
    }
  }

  @Test
  void aCallThatWaitedPastTheBound_goesOnWithoutTheTurn() throws Exception {
    Turns turns = new Turns(Duration.ofMillis(50));
    try (Turns.Turn held = turns.take(RECORD)) {
      CompletableFuture<Boolean> late =
          CompletableFuture.supplyAsync(
              () -> {
                try (Turns.Turn none = turns.take(RECORD)) {
                  return true;
                }
              },
              runnable -> new Thread(runnable).start());
      assertThat(late.get(10, TimeUnit.SECONDS))
          .as("the late call went on while the turn was held")
          .isTrue();
      assertThat(turns.calls(RECORD)).as("the holder only").isEqualTo(1);
    }
    assertThat(turns.records()).isZero();
  }

  @Test
  void aWaitWithNoEnd_isAccepted() {
    try (Turns.Turn turn = new Turns(Options.FOREVER).take(RECORD)) {
      assertThat(turn).isNotNull();
    }
  }

  @Test
  void theThreadThatHoldsATurn_takesItAgain_andAnotherRecordsTurnIsFree() throws Exception {
    Turns turns = new Turns(Duration.ofMinutes(1));
    CompletableFuture<Void> nested =
        CompletableFuture.runAsync(
            () -> {
              try (Turns.Turn outer = turns.take(RECORD);
                  Turns.Turn inner = turns.take(RECORD);
                  Turns.Turn other = turns.take("test.ledger another")) {
                assertThat(turns.records()).isEqualTo(2);
              }
            },
            runnable -> new Thread(runnable).start());
    nested.get(10, TimeUnit.SECONDS);
    assertThat(turns.records()).isZero();
  }

  @Test
  void aTurnClosedTwice_givesUpOnlyItsOwnHold_andLeavesTheLineOnce() throws Exception {
    Turns turns = new Turns(Duration.ofMillis(50));
    CompletableFuture<Boolean> otherGotTheTurn;
    try (Turns.Turn outer = turns.take(RECORD)) {
      Turns.Turn inner = turns.take(RECORD);
      inner.close();
      inner.close(); // once more: the outer hold of the same thread stays, and the line counts it
      assertThat(turns.calls(RECORD)).as("the outer holder only").isEqualTo(1);
      otherGotTheTurn =
          CompletableFuture.supplyAsync(
              () -> {
                try (Turns.Turn other = turns.take(RECORD)) {
                  return other != Turns.NONE;
                }
              },
              runnable -> new Thread(runnable).start());
      assertThat(otherGotTheTurn.get(10, TimeUnit.SECONDS))
          .as("another thread while the outer turn is held")
          .isFalse();
    }
    assertThat(turns.records()).as("lines of records nobody waits for").isZero();
    Turns.Turn again = turns.take(RECORD);
    again.close();
    again.close();
    assertThat(turns.records()).isZero();
    try (Turns.Turn next = turns.take(RECORD)) {
      assertThat(next).as("the turn is free after a turn closed twice").isNotSameAs(Turns.NONE);
    }
  }
}
