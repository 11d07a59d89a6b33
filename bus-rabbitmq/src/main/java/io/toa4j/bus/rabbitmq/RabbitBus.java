package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Response;
import io.toa4j.spi.UnreachableException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RabbitMQ bus: see {@link Topology} for the broker's objects, {@link Subscriber} for consuming
 * and the module's README for the design.
 *
 * <p>Two connections, as two processes' worth of work should not wait on each other: one publishes
 * (and lists, replays and counts), one consumes, so that the broker's flow control on publishers
 * never holds back acknowledgements. Both recover automatically; while one is down, calls that need
 * it fail with an {@link IllegalStateException} saying so. Thread-safe.
 */
final class RabbitBus implements Bus, Bus.Calls, Bus.Parking {
  private static final Logger LOG = LoggerFactory.getLogger(RabbitBus.class);
  private final Tuning tuning;
  private final Connection publishing;
  private final Connection consuming;
  private final Channels channels;

  /**
   * Every exchange, queue and binding, declared on channels that live as long as their connection.
   */
  private final Declarations publishingTopology;

  private final Declarations consumingTopology;
  private final Verdicts verdicts;
  private final ParkedQueue parked;
  private final io.toa4j.bus.rabbitmq.Calls
      calls; // the broker's side of the calls role (Bus.Calls, this)
  private final Set<String> declared = ConcurrentHashMap.newKeySet();
  private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
  private final ExecutorService handlers = Executors.newCachedThreadPool(daemons());
  private final AtomicBoolean closed = new AtomicBoolean();

  RabbitBus(Tuning tuning, ConnectionFactory factory, Clock clock) {
    this.tuning = tuning;
    Connection p = null;
    try {
      p = factory.newConnection("toa4j publisher");
      this.publishing = p;
      this.consuming = factory.newConnection("toa4j consumer");
    } catch (IOException | TimeoutException | RuntimeException e) {
      Connections.closeQuietly(p);
      handlers.shutdown();
      String message =
          "Cannot connect to RabbitMQ at "
              + tuning.where()
              + " (from "
              + tuning.source()
              + "): "
              + e
              + ". Is the broker running? Start it with `rabbitmq-server -detached`, or point the"
              + " bus elsewhere with the option 'url' or the environment variable "
              + Tuning.ENV;
      if (Connections.isUnreachable(e)) throw new UnreachableException(message, e);
      throw new IllegalStateException(message, e);
    }
    this.channels = new Channels(publishing, tuning.confirmTimeout());
    this.publishingTopology = new Declarations(publishing);
    this.consumingTopology = new Declarations(consuming);
    this.verdicts = new Verdicts(channels, clock);
    this.parked = new ParkedQueue(channels, publishingTopology, tuning.confirmTimeout());
    this.calls = new io.toa4j.bus.rabbitmq.Calls(consuming, channels);
    try {
      publishingTopology.declare("shared", Topology::declareShared);
    } catch (IOException | RuntimeException e) {
      close();
      throw failure("declare " + Topology.EVENTS + " and " + Topology.PARKED, e);
    }
  }

  @Override
  public void declare(String queue, Set<String> labels) {
    requireName(queue, "queue");
    Objects.requireNonNull(labels, "labels").forEach(label -> requireName(label, "label"));
    declare(
        publishingTopology,
        "declare queue " + queue,
        "queue " + queue,
        channel -> Topology.declareQueue(channel, queue));
    for (String label : labels) {
      declare(
          publishingTopology,
          "bind queue " + queue + " to " + label,
          "binding " + queue + " " + label,
          channel -> channel.queueBind(queue, Topology.EVENTS, label));
    }
    declared.add(queue);
  }

  @Override
  public void publish(Message event) {
    Objects.requireNonNull(event, "event");
    requireOpen();
    try {
      channels.publish(
          Topology.EVENTS, event.label(), Codec.properties(event, 1), Codec.body(event));
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      throw failure("publish event " + event.id() + " (" + event.label() + ")", e);
    }
  }

  /** {@inheritDoc} On one channel, with one wait for the broker's confirms of them all. */
  @Override
  public void publish(List<Message> events) {
    Objects.requireNonNull(events, "events");
    if (events.isEmpty()) return;
    requireOpen();
    List<Channels.Outgoing> outgoing = new ArrayList<>(events.size());
    for (Message event : events) {
      outgoing.add(
          new Channels.Outgoing(
              Topology.EVENTS, event.label(), Codec.properties(event, 1), Codec.body(event)));
    }
    try {
      channels.publish(outgoing);
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      throw failure(
          "publish "
              + events.size()
              + " events, the first "
              + events.get(0).id()
              + " ("
              + events.get(0).label()
              + ")",
          e);
    }
  }

  /** {@inheritDoc} Declares the queue (and its retry queue) when this bus has not yet. */
  @Override
  public void send(String queue, Message message) {
    requireName(queue, "queue");
    Objects.requireNonNull(message, "message");
    ensureDeclared(queue);
    try {
      channels.publish("", queue, Codec.properties(message, 1), Codec.body(message));
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      throw failure("send message " + message.id() + " to queue " + queue, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Declares the queue when needed. Any number of subscriptions, in this process or others, may
   * consume one queue; the broker hands each message to one of them.
   */
  @Override
  public Subscription consume(String queue, Handler handler) {
    requireName(queue, "queue");
    Objects.requireNonNull(handler, "handler");
    ensureDeclared(queue);
    // on the consuming connection too, so that its recovery declares the queue before the consumer
    declare(
        consumingTopology,
        "declare queue " + queue,
        "queue " + queue,
        channel -> Topology.declareQueue(channel, queue));
    return subscribe(
        queue, Subscriber.messages(queue, handler, verdicts), "consume queue " + queue, () -> {});
  }

  /**
   * {@inheritDoc}
   *
   * <p>Counts the call queue's consumers first, unless a count within {@link
   * io.toa4j.bus.rabbitmq.Calls#SERVED_FOR} found some (see {@link io.toa4j.bus.rabbitmq.Calls});
   * the call carries the timeout as its expiration, so the broker drops it when nobody took it in
   * time.
   */
  @Override
  public Response request(String queue, Message call, Duration timeout) {
    requireName(queue, "queue");
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(timeout, "timeout");
    requireOpen();
    try {
      return calls.request(queue, call, timeout);
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      throw failure("send call " + call.id() + " (" + call.label() + ") to queue " + queue, e);
    }
  }

  /** {@inheritDoc} Declares the durable call queue when needed. */
  @Override
  public Subscription serve(String queue, Responder responder) {
    requireName(queue, "queue");
    Objects.requireNonNull(responder, "responder");
    if (!declared.contains(queue)) {
      declare(
          publishingTopology,
          "declare call queue " + queue,
          "call queue " + queue,
          channel -> Topology.declareCallQueue(channel, queue));
      declared.add(queue);
    }
    declare(
        consumingTopology,
        "declare call queue " + queue,
        "call queue " + queue,
        channel -> Topology.declareCallQueue(channel, queue));
    return subscribe(
        queue,
        calls.answering(queue, responder),
        "serve queue " + queue,
        () -> calls.forget(queue));
  }

  /** {@inheritDoc} Distributed: any number of processes consume and serve the broker's queues. */
  @Override
  public Set<Capability> capabilities() {
    return RabbitBusProvider.CAPABILITIES;
  }

  @Override
  public Optional<Bus.Calls> calls() {
    return Optional.of(this);
  }

  @Override
  public Optional<Parking> parking() {
    return Optional.of(this);
  }

  private Subscription subscribe(
      String queue, Subscriber.Work work, String what, Runnable onClose) {
    Channel channel = null;
    try {
      channel = consuming.createChannel();
      Subscriber subscriber =
          new Subscriber(
              channel,
              queue,
              work,
              handlers,
              tuning.closeTimeout(),
              closed -> {
                subscribers.remove(closed);
                onClose.run();
              });
      subscribers.add(subscriber);
      subscriber.start(tuning.prefetch());
      return subscriber;
    } catch (IOException | RuntimeException e) {
      if (channel != null) Channels.closeQuietly(channel);
      throw failure(what, e);
    }
  }

  @Override
  public List<Parked> parked() {
    requireOpen();
    try {
      return parked.list();
    } catch (IOException | TimeoutException | RuntimeException e) {
      throw failure("list the parked messages in " + Topology.PARKED, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The message count of {@value Topology#PARKED} as the broker reports it to a passive declare:
   * messages a listing or a replay holds unacknowledged at that moment are not counted.
   */
  @Override
  public long parkedCount() {
    return call(
        "count queue " + Topology.PARKED, channel -> Topology.ready(channel, Topology.PARKED));
  }

  @Override
  public boolean replay(String parkedId) {
    Objects.requireNonNull(parkedId, "parkedId");
    requireOpen();
    try {
      return parked.replay(parkedId);
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      throw failure("replay parked message " + parkedId, e);
    }
  }

  /**
   * {@inheritDoc} The copy is acknowledged; the reason is logged at INFO with the message's queue
   * and id.
   */
  @Override
  public boolean discard(String parkedId, String reason) {
    Objects.requireNonNull(parkedId, "parkedId");
    Objects.requireNonNull(reason, "reason");
    requireOpen();
    try {
      Optional<Parked> gone = parked.discard(parkedId);
      gone.ifPresent(
          p ->
              LOG.info(
                  "Parked message {} discarded (queue {}, id {}): {}",
                  parkedId,
                  p.queue(),
                  p.message().id(),
                  reason));
      return gone.isPresent();
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      throw failure("discard parked message " + parkedId, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Counts the messages ready in the queue and in its retry queue, as the broker reports them,
   * and those this bus's subscriptions hold unacknowledged. Messages held by consumers in other
   * processes are not counted: AMQP does not tell, only the management plugin does.
   */
  @Override
  public long depth(String queue) {
    requireName(queue, "queue");
    long ready =
        call("count queue " + queue, channel -> Topology.ready(channel, queue))
            + call(
                "count queue " + Topology.retryQueue(queue),
                channel -> Topology.ready(channel, Topology.retryQueue(queue)));
    long held =
        subscribers.stream()
            .filter(s -> s.queue().equals(queue))
            .mapToLong(Subscriber::unacked)
            .sum();
    return ready + held;
  }

  /**
   * {@inheritDoc}
   *
   * <p>One passive declare: the messages ready in the queue while the broker counts a consumer on
   * it, and those this bus's subscriptions hold unacknowledged; not its retry queue, whose messages
   * wait for their delay rather than for a consumer.
   */
  @Override
  public OptionalLong backlog(String queue) {
    requireName(queue, "queue");
    Optional<AMQP.Queue.DeclareOk> found =
        call("count queue " + queue, channel -> Topology.found(channel, queue));
    if (found.isEmpty() || found.get().getConsumerCount() == 0) return OptionalLong.empty();
    long held =
        subscribers.stream()
            .filter(s -> s.queue().equals(queue))
            .mapToLong(Subscriber::unacked)
            .sum();
    return OptionalLong.of(found.get().getMessageCount() + held);
  }

  @Override
  public String describe() {
    return "rabbitmq bus at " + tuning.where();
  }

  /**
   * Closes every subscription (each waits up to the close timeout for its handlers), then both
   * connections. What the subscriptions still hold goes back to its queues.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) return;
    subscribers.forEach(Subscriber::close);
    if (calls != null) calls.close();
    if (channels != null) channels.close();
    if (publishingTopology != null) publishingTopology.close();
    if (consumingTopology != null) consumingTopology.close();
    Connections.closeQuietly(consuming);
    Connections.closeQuietly(publishing);
    handlers.shutdownNow();
  }

  /**
   * Drops both connections at once, as a process that dies or a network that fails would, without
   * recovery; for tests. The bus stays open, and its calls fail as while the broker is away.
   */
  void crash() {
    Connections.abort(consuming);
    Connections.abort(publishing);
    handlers.shutdownNow();
  }

  /**
   * Deliveries of the queue this bus's consumers hold: handed over and their acks not sent; for
   * tests.
   */
  int unacked(String queue) {
    return subscribers.stream()
        .filter(s -> s.queue().equals(queue))
        .mapToInt(Subscriber::unacked)
        .sum();
  }

  /** How many publishing channels this bus has opened so far; for tests. */
  long channelsOpened() {
    return channels.opened();
  }

  private void ensureDeclared(String queue) {
    if (declared.contains(queue)) return;
    declare(
        publishingTopology,
        "declare queue " + queue,
        "queue " + queue,
        channel -> Topology.declareQueue(channel, queue));
    declared.add(queue);
  }

  private void declare(
      Declarations on, String what, String key, Declarations.Declaration declaration) {
    requireOpen();
    try {
      on.declare(key, declaration);
    } catch (IOException | RuntimeException e) {
      throw failure(what, e);
    }
  }

  private <T> T call(String what, Channels.Work<T> work) {
    requireOpen();
    try {
      return channels.with(work);
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      throw failure(what, e);
    }
  }

  private IllegalStateException failure(String what, Exception e) {
    if (e instanceof InterruptedException) Thread.currentThread().interrupt();
    if (e instanceof IllegalArgumentException || e instanceof BusClosed) throw (RuntimeException) e;
    String cause =
        e.getCause() != null && e instanceof IOException ? e.getCause().getMessage() : e.toString();
    String text = "Cannot " + what + " on RabbitMQ at " + tuning.where() + ": " + cause;
    // out of reach for now: the caller may try again, and logs it as an outage (see OutageLog); a
    // broker that confirms nothing in time (an alarm holding publishers back) is too
    if (Connections.isLost(e) || e instanceof TimeoutException || channels.recovering())
      return new UnreachableException(text, e);
    return new IllegalStateException(text, e);
  }

  private void requireOpen() {
    if (closed.get()) throw new BusClosed(describe());
  }

  private static void requireName(String name, String what) {
    Objects.requireNonNull(name, what);
    if (name.isBlank()) throw new IllegalArgumentException("A " + what + " name must not be blank");
  }

  private static ThreadFactory daemons() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      return new BusThread(runnable, "toa-rabbitmq-handler-" + count.incrementAndGet());
    };
  }

  /** A call on a bus that was closed. */
  static final class BusClosed extends IllegalStateException {
    BusClosed(String bus) {
      super("The " + bus + " is closed");
    }
  }
}
