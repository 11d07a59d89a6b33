package io.toa4j.tck.bus;

import static io.toa4j.tck.bus.BusContract.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parked messages, reached by an operator: the contract of {@link Bus.Parking}, for a bus whose
 * {@link Bus#parking()} has it. Its test implements this beside {@link BusContract}'s.
 */
public interface ParkingContract extends BusContract {
  @Test
  default void consume_park_isListedWithCodeReasonAndAttempts() {
    String q = queue("tasks");
    Message task = message("t1", label("a.op"));
    Recorder seen =
        new Recorder(
            d ->
                d.attempt() == 1
                    ? new Verdict.Retry(Duration.ZERO)
                    : new Verdict.Park("CONTRACT", "no name"));
    long before = System.currentTimeMillis();
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Parking parking = bus.parking().orElseThrow();
      long parkedBefore = parking.parkedCount(); // other queues' parked messages, on a shared bus
      bus.send(q, task);

      bus.consume(q, seen);

      await().atMost(PATIENCE).until(() -> parkedIn(parking, q).size() == 1);
      Parked parked = parkedIn(parking, q).get(0);
      assertThat(parked.message()).isEqualTo(task);
      assertThat(parked.code()).isEqualTo("CONTRACT");
      assertThat(parked.reason()).isEqualTo("no name");
      assertThat(parked.attempts()).isEqualTo(2);
      assertThat(parked.at()).isBetween(before, System.currentTimeMillis());
      assertThat(bus.depth(q)).as("a parked message is not counted").isZero();
      assertThat(parkedIn(parking, q)).as("listing twice finds it again").hasSize(1);
      assertThat(parking.parkedCount())
          .as("the count, without listing, includes it")
          .isEqualTo(parkedBefore + 1);
    }
  }

  @Test
  default void replay_parked_isConsumedAgainWithTheNextAttempt() {
    String q = queue("tasks");
    Recorder seen =
        new Recorder(d -> d.attempt() == 1 ? new Verdict.Park("SYSTEM", "down") : Verdict.DONE);
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Parking parking = bus.parking().orElseThrow();
      long parkedBefore = parking.parkedCount();
      bus.send(q, message("t1", label("a.op")));
      bus.consume(q, seen);
      await().atMost(PATIENCE).until(() -> parkedIn(parking, q).size() == 1);
      assertThat(parking.parkedCount()).isEqualTo(parkedBefore + 1);

      assertThat(parking.replay(parkedIn(parking, q).get(0).id())).isTrue();

      await().atMost(PATIENCE).until(() -> seen.count() == 2);
      assertThat(seen.attempts()).containsExactly(1, 2);
      await().atMost(PATIENCE).until(() -> bus.depth(q) == 0);
      assertThat(parkedIn(parking, q)).isEmpty();
      assertThat(parking.parkedCount())
          .as("a replayed message is no longer counted")
          .isEqualTo(parkedBefore);
    }
  }

  @Test
  default void firstFailed_keptFromTheFirstFailingVerdict_throughParkAndReplay() {
    String q = queue("tasks");
    Recorder seen =
        new Recorder(
            d ->
                switch (d.attempt()) {
                  case 1 -> new Verdict.Retry(Duration.ZERO);
                  case 2 -> new Verdict.Park("SYSTEM", "down");
                  default -> Verdict.DONE;
                });
    long before = System.currentTimeMillis();
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Parking parking = bus.parking().orElseThrow();
      bus.send(q, message("t1", label("a.op")));
      bus.consume(q, seen);
      await().atMost(PATIENCE).until(() -> parkedIn(parking, q).size() == 1);
      assertThat(seen.first().firstFailed()).as("not failed before its first verdict").isEmpty();
      long first = seen.seen().get(1).delivery().firstFailed().orElseThrow();
      assertThat(first).isBetween(before, System.currentTimeMillis());
      Parked parked = parkedIn(parking, q).get(0);
      assertThat(parked.firstFailed())
          .as("the park keeps the first failure, not its own time")
          .isEqualTo(first);
      assertThat(parked.at()).isGreaterThanOrEqualTo(first);

      assertThat(parking.replay(parked.id())).isTrue();

      await().atMost(PATIENCE).until(() -> seen.count() == 3);
      assertThat(seen.seen().get(2).delivery().firstFailed())
          .as("a replay keeps it")
          .hasValue(first);
    }
  }

  @Test
  default void discard_parked_removesItForGood() {
    String q = queue("tasks");
    Recorder seen = new Recorder(d -> new Verdict.Park("CONTRACT", "no name"));
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Parking parking = bus.parking().orElseThrow();
      long parkedBefore = parking.parkedCount();
      bus.send(q, message("t1", label("a.op")));
      bus.send(q, message("t2", label("a.op")));
      bus.consume(q, seen);
      await().atMost(PATIENCE).until(() -> parkedIn(parking, q).size() == 2);
      Parked first =
          parkedIn(parking, q).stream()
              .filter(p -> p.message().id().equals("t1"))
              .findFirst()
              .orElseThrow();

      assertThat(parking.discard(first.id(), "a test gave up on it")).isTrue();

      assertThat(parkedIn(parking, q)).extracting(p -> p.message().id()).containsExactly("t2");
      assertThat(parking.parkedCount()).isEqualTo(parkedBefore + 1);
      assertThat(bus.depth(q)).as("not put back on its queue").isZero();
      assertThat(parking.discard(first.id(), "again"))
          .as("gone: a second discard finds nothing")
          .isFalse();
      assertThat(parking.replay(first.id())).as("nor can it be replayed").isFalse();
    }
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Parking parking = bus.parking().orElseThrow();
      assertThat(parkedIn(parking, q))
          .as("for good: not back after a restart")
          .extracting(p -> p.message().id())
          .containsExactly("t2");
    }
  }

  @Test
  default void discard_unknownId_returnsFalse() {
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Parking parking = bus.parking().orElseThrow();
      assertThat(parking.discard("12345", "no reason")).isFalse();
      assertThat(parking.discard("not an id", "no reason")).isFalse();
    }
  }

  @Test
  default void replay_unknownId_returnsFalse() {
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Parking parking = bus.parking().orElseThrow();
      assertThat(parking.replay("12345")).isFalse();
      assertThat(parking.replay("not an id")).isFalse();
    }
  }

  private static List<Parked> parkedIn(Bus.Parking parking, String queue) {
    return parking.parked().stream().filter(p -> p.queue().equals(queue)).toList();
  }
}
