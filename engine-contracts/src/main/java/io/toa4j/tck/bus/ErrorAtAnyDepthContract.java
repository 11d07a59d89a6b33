package io.toa4j.tck.bus;

import static io.toa4j.tck.bus.BusContract.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.tck.stack.Overflow;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a bus keeps when an {@link Error} meets its calls at any depth, beside {@link BusContract}.
 * A bus whose driver takes locks on its caller's thread cannot keep it unless it keeps its callers
 * out of the driver: RabbitMQ's client writes under locks that a {@link StackOverflowError} on the
 * way out of them leaves held, which stops every later write of the connection, so the RabbitMQ bus
 * runs its work with the broker on threads of its own (docs/protocols.md). A bus's calls are
 * explored likewise by {@link CallsContract}.
 */
public interface ErrorAtAnyDepthContract extends BusContract {
  /**
   * A publish cut short by an {@link Error} anywhere inside it leaves the bus going on: every
   * publish that returned is delivered, and so is the next one, to the consumer that was taking
   * before. The error is a {@link StackOverflowError} met at one depth of the publish's own calls
   * after another ({@link Overflow}), until publishes return with the stack they have. A publish
   * that threw may have left or not, as one whose connection was lost.
   */
  @Test
  default void publish_cutShortByAnErrorAtAnyDepth_theBusGoesOn() throws InterruptedException {
    String orders = queue("orders");
    String created = label("order.created");
    Bus bus = open(Clock.systemUTC());
    try {
      bus.declare(orders, Set.of(created));
      Recorder seen = new Recorder();
      bus.consume(orders, seen);
      bus.publish(message("warm", created)); // every class a publish uses, loaded beforehand
      await().atMost(PATIENCE).until(() -> seen.count() == 1);

      List<String> returned = new ArrayList<>();
      int erredInside = 0;
      int inARow = 0;
      Throwable last = null;
      // a frame at a time once a try reaches the bus; faster through the depths where none does
      int step = 1;
      for (int spare = 0; spare < 40_000 && inARow < 5; spare += step) {
        Message message = message("deep-" + spare, created);
        Overflow.Try<Boolean> attempt =
            Overflow.call(
                () -> {
                  bus.publish(message);
                  return true;
                },
                spare,
                PATIENCE);
        if (attempt.erredInside()) erredInside++;
        if (attempt.returned()) returned.add(message.id());
        if (attempt.error() != null) last = attempt.error();
        inARow = attempt.returned() ? inARow + 1 : 0;
        step = attempt.entered() ? 1 : 16;
      }
      assertThat(inARow)
          .as(
              "publishes return once they have the stack they need; the last failure: %s",
              Overflow.describe(last))
          .isEqualTo(5);
      assertThat(erredInside)
          .as("publishes cut short by the error once inside the bus")
          .isGreaterThanOrEqualTo(3);

      Bounded.within(
          "a publish after the exploration",
          () -> {
            bus.publish(message("after", created));
            return null;
          });
      returned.add("after");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(seen.seen().stream().map(s -> s.delivery().message().id()).toList())
                      .as("every publish that returned, delivered")
                      .containsAll(returned));
    } catch (RuntimeException | Error failed) {
      Bounded.closeWithin(bus, failed);
      throw failed;
    }
    Bounded.closeWithin(bus, null);
  }
}
