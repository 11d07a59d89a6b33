package io.toa4j.runtime;

import io.toa4j.api.Failure;
import io.toa4j.api.Receiver;
import io.toa4j.api.Request;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Message;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * The context's queues and their consumers: one queue per receiver binding, one task queue and one
 * call queue per component. Turns each delivery into a call of a local operation with nobody
 * waiting, under an identity that is the same on every delivery of the message, and leaves the
 * verdict to {@link Deliveries}; answers each call through {@link Calls}.
 *
 * <p>Every queue of the context is declared, so an event published here reaches the receivers of
 * components other processes host even before they start; only the hosted components' queues are
 * consumed.
 */
final class Messaging implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Messaging.class);

  /** Calls a local operation: component label, operation, request, identity. */
  interface Invoker {
    /**
     * @param waited whether somebody waits for the answer: a call from another process, as opposed
     *     to a task or an event delivered to a receiver
     */
    Result invoke(
        String component, String operation, Request request, String identity, boolean waited);
  }

  private final Bus bus;
  private final Map<String, Reception> receptions;
  private final List<String> components;
  private final Set<String> hosted;
  private final Deliveries deliveries;
  private final Invoker invoker;
  private final Tracing tracing;
  private final Runnable callWaits;
  private final InFlight callsInFlight = new InFlight();
  private final List<Bus.Subscription> subscriptions = new ArrayList<>();

  /**
   * @param components every component of the context
   * @param hosted those this process hosts: it consumes their queues
   * @param tracing records a span per call served for another process
   * @param callWaits told when a call taken from the bus waits for its twin running here
   */
  Messaging(
      Bus bus,
      Collection<Reception> receptions,
      Collection<String> components,
      Set<String> hosted,
      Deliveries deliveries,
      Invoker invoker,
      Tracing tracing,
      Runnable callWaits) {
    this.tracing = tracing;
    this.bus = bus;
    this.receptions =
        receptions.stream()
            .collect(Collectors.toUnmodifiableMap(Reception::queue, Function.identity()));
    this.components = List.copyOf(components);
    this.hosted = Set.copyOf(hosted);
    this.deliveries = deliveries;
    this.invoker = invoker;
    this.callWaits = callWaits;
  }

  /** The queue of a component's tasks. */
  static String tasks(String component) {
    return component + "..tasks";
  }

  /**
   * Declares every queue of the context before anything is published to it, then starts consuming
   * those of the hosted components: their receivers, tasks and calls.
   */
  void start() {
    for (Reception reception : receptions.values())
      bus.declare(reception.queue(), Set.of(reception.label()));
    for (String component : components) bus.declare(tasks(component), Set.of());
    for (Reception reception : receptions.values()) {
      if (!hosted.contains(reception.component())) continue;
      subscriptions.add(bus.consume(reception.queue(), d -> deliveries.handle(d, this::receive)));
    }
    for (String component : components) {
      if (!hosted.contains(component)) continue;
      subscriptions.add(bus.consume(tasks(component), d -> deliveries.handle(d, this::runTask)));
      Optional<Bus.Calls> calls =
          bus.calls(); // without them, every caller is in this process (Hosting.requireCalls)
      if (calls.isPresent())
        subscriptions.add(
            calls
                .get()
                .serve(
                    Calls.queue(component),
                    Calls.responder(invoker, tracing, component, callsInFlight, callWaits)));
    }
  }

  /**
   * Every queue of the context, hosted here or not, with its component: each receiver's queue and
   * each component's task queue, sorted by name.
   */
  SortedMap<String, String> queues() {
    SortedMap<String, String> queues = new TreeMap<>();
    receptions.values().forEach(r -> queues.put(r.queue(), r.component()));
    components.forEach(c -> queues.put(tasks(c), c));
    return queues;
  }

  /**
   * What waits in the hosted components' queues, as "n message(s) in queue" for each one not empty.
   */
  List<String> pending() {
    List<String> pending = new ArrayList<>();
    List<String> queues = new ArrayList<>();
    receptions.values().stream()
        .filter(r -> hosted.contains(r.component()))
        .forEach(r -> queues.add(r.queue()));
    components.stream().filter(hosted::contains).forEach(c -> queues.add(tasks(c)));
    for (String queue : queues) {
      long depth = bus.depth(queue);
      if (depth > 0) pending.add(depth + " message(s) in " + queue);
    }
    return pending;
  }

  /**
   * An event at a receiver: adapted, then a call under an identity of the message and the queue.
   */
  private Result receive(Delivery delivery) {
    Reception reception = receptions.get(delivery.queue());
    JsonNode payload = Binding.tree(delivery.message().body());
    Request request;
    if (reception.code().isPresent()) {
      Object bound = bind(payload, reception.payload().orElseThrow(), reception.queue());
      Receiver<Object> code = reception.code().get();
      Supplier<String> where =
          () ->
              "the receiver of "
                  + reception.label()
                  + " in "
                  + reception.component()
                  + " ("
                  + code.getClass().getSimpleName()
                  + ")";
      if (!Authored.run(where, () -> code.condition(bound))) return new Result.Output(payload);
      request = Authored.run(where, () -> code.request(bound));
    } else {
      request = Request.input(payload);
    }
    String identity = Identities.derive(delivery.message().id(), reception.queue());
    return handledBefore(
        identity,
        () ->
            invoker.invoke(reception.component(), reception.operation(), request, identity, false));
  }

  /**
   * The call's result; for a call the operation refuses as {@link Failure.Code#ALREADY_ANSWERED}, a
   * message delivered again after its answer's window, the message is done: it was handled before,
   * and nothing is run again. The same failure from a call made while serving it is the serving
   * operation's to answer, and fails the delivery.
   */
  private static Result handledBefore(String identity, Supplier<Result> call) {
    try {
      return call.get();
    } catch (Failure f) {
      if (f.code() != Failure.Code.ALREADY_ANSWERED
          || !identity.equals(f.details().get("identity"))) throw f;
      LOG.info("Message handled before: identity={} {}", identity, f.getMessage());
      return new Result.Output(MissingNode.getInstance(), true);
    }
  }

  /**
   * The payload as the receiver's class: it reads what it needs of a payload, which may carry more.
   */
  private static Object bind(JsonNode payload, Class<?> type, String queue) {
    try {
      return Binding.VALUES.treeToValue(payload, type);
    } catch (tools.jackson.core.JacksonException | IllegalArgumentException e) {
      throw new Failure(
          Failure.Code.CONTRACT,
          "the payload on " + queue + " cannot be read: " + InputErrors.describe(payload, e));
    }
  }

  /** A task: the request it carries, under the task's own identity. */
  private Result runTask(Delivery delivery) {
    Message message = delivery.message();
    int dot = message.label().lastIndexOf('.');
    return handledBefore(
        message.id(),
        () ->
            invoker.invoke(
                message.label().substring(0, dot),
                message.label().substring(dot + 1),
                Requests.parse(Binding.tree(message.body())),
                message.id(),
                false));
  }

  /** Stops consuming; deliveries in progress finish or come again. */
  @Override
  public void close() {
    subscriptions.forEach(Bus.Subscription::close);
  }
}
