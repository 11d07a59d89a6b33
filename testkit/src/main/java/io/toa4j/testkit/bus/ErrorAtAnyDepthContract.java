package io.toa4j.testkit.bus;

import static io.toa4j.testkit.bus.BusContract.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.spi.Response;
import io.toa4j.testkit.stack.Overflow;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * What a bus keeps when an {@link Error} meets its calls at any depth, beside {@link BusContract}.
 * A bus whose driver takes locks on its caller's thread cannot keep it unless it keeps its callers
 * out of the driver: RabbitMQ's client writes under locks that a {@link StackOverflowError} on the
 * way out of them leaves held, which stops every later write of the connection, so the RabbitMQ bus
 * runs its work with the broker on threads of its own (docs/protocols.md).
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
      assertThat(inARow).as("publishes return once they have the stack they need; the last failure: %s", Overflow.describe(last)).isEqualTo(5);
      assertThat(erredInside).as("publishes cut short by the error once inside the bus").isGreaterThanOrEqualTo(3);

      within("a publish after the exploration", () -> {
        bus.publish(message("after", created));
        return null;
      });
      returned.add("after");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () -> assertThat(seen.seen().stream().map(s -> s.delivery().message().id()).toList())
                  .as("every publish that returned, delivered")
                  .containsAll(returned));
    } catch (RuntimeException | Error failed) {
      closeWithin(bus, failed);
      throw failed;
    }
    closeWithin(bus, null);
  }

  /**
   * A call cut short by an {@link Error} anywhere inside it leaves the bus going on: every request
   * that returned was answered, and so is the next one. The same exploration as a publish's, through
   * the call's whole path on the caller's side: the count of the queue's consumers, the request's
   * publish, the wait for the answer. A call that threw may have left or not, and its responder
   * may have answered nobody.
   */
  @Test
  default void request_cutShortByAnErrorAtAnyDepth_theBusGoesOn() throws InterruptedException {
    String calls = queue("calls");
    Bus bus = open(Clock.systemUTC());
    try {
      bus.serve(calls, d -> new Message("r-" + d.message().id(), d.message().label(), d.message().body(), Map.of()));
      Response warm = bus.request(calls, message("warm", label("wallets.credit")), PATIENCE); // every class a call uses, loaded
      assertThat(warm).isInstanceOf(Response.Answered.class);

      int erredInside = 0;
      int inARow = 0;
      int step = 1;
      Throwable last = null;
      for (int spare = 0; spare < 40_000 && inARow < 5; spare += step) {
        Message call = message("deep-" + spare, label("wallets.credit"));
        Overflow.Try<Response> attempt = Overflow.call(() -> bus.request(calls, call, PATIENCE), spare, PATIENCE.multipliedBy(2));
        if (attempt.erredInside()) erredInside++;
        if (attempt.error() != null) last = attempt.error();
        if (attempt.returned()) {
          assertThat(attempt.result()).as("a call that returned, at %d frames spare", spare).isInstanceOf(Response.Answered.class);
          assertThat(((Response.Answered) attempt.result()).reply().id()).isEqualTo("r-" + call.id());
        }
        inARow = attempt.returned() ? inARow + 1 : 0;
        step = attempt.entered() ? 1 : 16;
      }
      assertThat(inARow).as("calls return once they have the stack they need; the last failure: %s", Overflow.describe(last)).isEqualTo(5);
      assertThat(erredInside).as("calls cut short by the error once inside the bus").isGreaterThanOrEqualTo(3);

      Response after = within("a call after the exploration", () -> bus.request(calls, message("after", label("wallets.credit")), PATIENCE));
      assertThat(after).isInstanceOf(Response.Answered.class);
      assertThat(((Response.Answered) after).reply().id()).isEqualTo("r-after");
    } catch (RuntimeException | Error failed) {
      closeWithin(bus, failed);
      throw failed;
    }
    closeWithin(bus, null);
  }

  /**
   * The action's result, run on a thread of its own and waited for at most twice the patience: a
   * bus that an error stopped fails the test here, naming what did not end, rather than hanging it.
   */
  private static <T> T within(String what, Callable<T> action) throws InterruptedException {
    FutureTask<T> task = new FutureTask<>(action);
    Thread thread = new Thread(task, "within: " + what);
    thread.setDaemon(true);
    thread.start();
    try {
      return task.get(PATIENCE.multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(what + " did not end within " + PATIENCE.multipliedBy(2).toSeconds() + " s: the bus stopped, a lock"
          + " left held by the error; where it waits: " + Overflow.describe(stackOf(thread)));
    } catch (ExecutionException e) {
      throw new AssertionError(what + " failed: " + e.getCause(), e.getCause());
    }
  }

  private static Throwable stackOf(Thread thread) {
    Throwable where = new Throwable("the thread of " + thread.getName());
    where.setStackTrace(thread.getStackTrace());
    return where;
  }

  /** Closes the bus, bounded; when the test already failed, a close that does not end is added to that failure. */
  private static void closeWithin(Bus bus, Throwable failed) throws InterruptedException {
    try {
      within("the bus's close", () -> {
        bus.close();
        return null;
      });
    } catch (AssertionError e) {
      if (failed == null) throw e;
      failed.addSuppressed(e);
    }
  }
}
