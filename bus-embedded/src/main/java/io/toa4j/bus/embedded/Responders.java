package io.toa4j.bus.embedded;

import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import io.toa4j.spi.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls on the embedded bus: handed in memory to a responder of the same bus, never written to the
 * file. The embedded bus is consumed by one process, which hosts every component, so caller and
 * responder live and die together: there is nothing a durable call queue would save. Thread-safe.
 */
final class Responders {
  private static final Logger LOG = LoggerFactory.getLogger(Responders.class);

  private final Map<String, List<Bus.Responder>> serving = new ConcurrentHashMap<>();
  private final AtomicInteger turn = new AtomicInteger();
  private final ExecutorService executor;

  Responders(ExecutorService executor) {
    this.executor = executor;
  }

  Bus.Subscription serve(String queue, Bus.Responder responder) {
    Bus.Responder mine = responder::answer; // a distinct object, so closing removes this one only
    serving.computeIfAbsent(queue, q -> new CopyOnWriteArrayList<>()).add(mine);
    return () -> serving.getOrDefault(queue, List.of()).remove(mine);
  }

  Response request(String queue, Message call, Duration timeout) {
    List<Bus.Responder> responders = serving.getOrDefault(queue, List.of());
    if (responders.isEmpty()) return new Response.Unserved(queue);
    Bus.Responder responder;
    try {
      responder = responders.get(Math.floorMod(turn.getAndIncrement(), responders.size()));
    } catch (IndexOutOfBoundsException e) { // the last one closed meanwhile
      return new Response.Unserved(queue);
    }
    Future<Message> answer;
    try {
      answer = executor.submit(() -> responder.answer(new Delivery(call, queue, 1)));
    } catch (RejectedExecutionException e) {
      return new Response.Unserved(queue); // the bus is closing
    }
    try {
      Message reply = answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (reply != null) return new Response.Answered(reply);
      LOG.warn("The responder of queue {} answered nothing to call {}", queue, call.id());
    } catch (ExecutionException e) {
      LOG.warn(
          "The responder of queue {} failed on call {}; it sends no answer",
          queue,
          call.id(),
          e.getCause());
    } catch (TimeoutException e) {
      return new Response.Unanswered(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      answer.cancel(true);
      throw new IllegalStateException(
          "Interrupted while waiting for the answer to call " + call.id() + " on " + queue, e);
    }
    return new Response.Unanswered(timeout);
  }
}
