package io.toa4j.tck.bus;

import static io.toa4j.tck.bus.BusContract.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import io.toa4j.spi.Response;
import io.toa4j.tck.stack.Overflow;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Calls whose callers wait for the answer: the contract of {@link Bus.Calls}, for a bus whose
 * {@link Bus#calls()} has them. Its test implements this beside {@link BusContract}'s.
 */
public interface CallsContract extends BusContract {
  @Test
  default void headers_aTraceContext_travelsUnchangedOnACall() {
    String q = queue("calls");
    Message call = new Message("c1", label("wallets.credit"), new Json("{}"), TRACED);
    List<Delivery> served = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Calls calls = bus.calls().orElseThrow();
      calls.serve(
          q,
          d -> {
            served.add(d);
            return new Message(d.message().id(), d.message().label(), new Json("null"), Map.of());
          });

      assertThat(calls.request(q, call, PATIENCE)).isInstanceOf(Response.Answered.class);

      assertThat(served).extracting(d -> d.message().headers()).containsExactly(TRACED);
    }
  }

  @Test
  default void request_served_isAnsweredWithTheRespondersReply() {
    String q = queue("calls");
    Message call = message("c1", label("wallets.credit"));
    List<Delivery> received = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Calls calls = bus.calls().orElseThrow();
      calls.serve(
          q,
          d -> {
            received.add(d);
            return new Message(
                "r-" + d.message().id(), d.message().label(), new Json("{\"output\":7}"), Map.of());
          });

      Response response = calls.request(q, call, PATIENCE);

      assertThat(response).isInstanceOf(Response.Answered.class);
      Message reply = ((Response.Answered) response).reply();
      assertThat(reply.id()).isEqualTo("r-c1");
      assertThat(reply.body().text()).isEqualTo("{\"output\":7}");
      assertThat(received).hasSize(1);
      assertThat(received.get(0).message()).as("the call arrives as sent").isEqualTo(call);
      assertThat(received.get(0).queue()).isEqualTo(q);
      assertThat(received.get(0).attempt()).isEqualTo(1);
    }
  }

  @Test
  default void request_nobodyServes_isUnservedAtOnce() {
    String q = queue("calls");
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Calls calls = bus.calls().orElseThrow();
      long start = System.nanoTime();

      Response response =
          calls.request(q, message("c1", label("wallets.credit")), Duration.ofMinutes(5));

      assertThat(response).isEqualTo(new Response.Unserved(q));
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("time to be told")
          .isLessThan(PATIENCE);
    }
  }

  @Test
  default void request_afterTheResponderClosed_isUnserved() {
    String q = queue("calls");
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Calls calls = bus.calls().orElseThrow();
      Bus.Subscription serving = calls.serve(q, d -> d.message());
      assertThat(calls.request(q, message("c1", label("a.op")), PATIENCE))
          .isInstanceOf(Response.Answered.class);

      serving.close();

      await()
          .atMost(PATIENCE)
          .until(
              () ->
                  calls.request(q, message("c2", label("a.op")), PATIENCE)
                      instanceof Response.Unserved);
    }
  }

  @Test
  default void request_responderSlowerThanTheTimeout_isUnanswered() throws InterruptedException {
    String q = queue("calls");
    CountDownLatch release = new CountDownLatch(1);
    Duration timeout = Duration.ofMillis(300);
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Calls calls = bus.calls().orElseThrow();
      calls.serve(
          q,
          d -> {
            try {
              release.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return d.message();
          });
      long start = System.nanoTime();

      Response response = calls.request(q, message("c1", label("a.op")), timeout);

      assertThat(response).isEqualTo(new Response.Unanswered(timeout));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(timeout);
      release.countDown();
    }
  }

  @Test
  default void request_responderThrows_isUnansweredAndTheResponderKeepsServing() {
    String q = queue("calls");
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Calls calls = bus.calls().orElseThrow();
      calls.serve(
          q,
          d -> {
            if (d.message().id().equals("bad"))
              throw new IllegalStateException("boom (a test's failure)");
            return d.message();
          });

      assertThat(calls.request(q, message("bad", label("a.op")), Duration.ofSeconds(2)))
          .isInstanceOf(Response.Unanswered.class);
      Response next = calls.request(q, message("good", label("a.op")), PATIENCE);

      assertThat(next).isInstanceOf(Response.Answered.class);
      assertThat(((Response.Answered) next).reply().id()).isEqualTo("good");
    }
  }

  @Test
  default void request_concurrentCallers_eachGetsTheAnswerToItsOwnCall() {
    String q = queue("calls");
    int callers = 32;
    try (Bus bus = open(Clock.systemUTC())) {
      Bus.Calls calls = bus.calls().orElseThrow();
      calls.serve(
          q,
          d ->
              new Message(
                  d.message().id(),
                  "answer",
                  new Json("\"to " + d.message().id() + "\""),
                  Map.of()));

      List<CompletableFuture<Response>> responses =
          IntStream.range(0, callers)
              .mapToObj(
                  i ->
                      CompletableFuture.supplyAsync(
                          () -> calls.request(q, message("c" + i, label("a.op")), PATIENCE)))
              .toList();

      for (int i = 0; i < callers; i++) {
        Response response = responses.get(i).join();
        assertThat(response).isInstanceOf(Response.Answered.class);
        assertThat(((Response.Answered) response).reply().body().text())
            .isEqualTo("\"to c" + i + "\"");
      }
    }
  }

  /**
   * A call cut short by an {@link Error} anywhere inside it leaves the bus going on: every request
   * that returned was answered, and so is the next one. The same exploration as a publish's,
   * through the call's whole path on the caller's side: the count of the queue's consumers, the
   * request's publish, the wait for the answer. A call that threw may have left or not, and its
   * responder may have answered nobody.
   */
  @Test
  default void request_cutShortByAnErrorAtAnyDepth_theBusGoesOn() throws InterruptedException {
    String calls = queue("calls");
    Bus bus = open(Clock.systemUTC());
    Bus.Calls calling = bus.calls().orElseThrow();
    try {
      calling.serve(
          calls,
          d ->
              new Message(
                  "r-" + d.message().id(), d.message().label(), d.message().body(), Map.of()));
      Response warm =
          calling.request(
              calls,
              message("warm", label("wallets.credit")),
              PATIENCE); // every class a call uses, loaded
      assertThat(warm).isInstanceOf(Response.Answered.class);

      int erredInside = 0;
      int inARow = 0;
      int step = 1;
      Throwable last = null;
      for (int spare = 0; spare < 40_000 && inARow < 5; spare += step) {
        Message call = message("deep-" + spare, label("wallets.credit"));
        Overflow.Try<Response> attempt =
            Overflow.call(
                () -> calling.request(calls, call, PATIENCE), spare, PATIENCE.multipliedBy(2));
        if (attempt.erredInside()) erredInside++;
        if (attempt.error() != null) last = attempt.error();
        if (attempt.returned()) {
          assertThat(attempt.result())
              .as("a call that returned, at %d frames spare", spare)
              .isInstanceOf(Response.Answered.class);
          assertThat(((Response.Answered) attempt.result()).reply().id())
              .isEqualTo("r-" + call.id());
        }
        inARow = attempt.returned() ? inARow + 1 : 0;
        step = attempt.entered() ? 1 : 16;
      }
      assertThat(inARow)
          .as(
              "calls return once they have the stack they need; the last failure: %s",
              Overflow.describe(last))
          .isEqualTo(5);
      assertThat(erredInside)
          .as("calls cut short by the error once inside the bus")
          .isGreaterThanOrEqualTo(3);

      Response after =
          Bounded.within(
              "a call after the exploration",
              () -> calling.request(calls, message("after", label("wallets.credit")), PATIENCE));
      assertThat(after).isInstanceOf(Response.Answered.class);
      assertThat(((Response.Answered) after).reply().id()).isEqualTo("r-after");
    } catch (RuntimeException | Error failed) {
      Bounded.closeWithin(bus, failed);
      throw failed;
    }
    Bounded.closeWithin(bus, null);
  }
}
