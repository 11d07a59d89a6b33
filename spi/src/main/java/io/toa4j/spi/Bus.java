package io.toa4j.spi;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Carries events and tasks between components, at least once; calls whose callers wait for the
 * answer, and the parked messages an operator looks after, where the bus has those roles.
 *
 * <p>A queue is durable: what was published or sent to it stays until a consumer's verdict removes
 * it, across crashes of the publisher, the consumer and the bus. Delivery is unordered. A consumer
 * may get a message again (after a crash before its verdict, or a retry), always with the same
 * {@link Message#id()}. Thread-safe.
 *
 * <p>Every bus publishes and consumes (the methods here). The other roles are interfaces of their
 * own that a bus has as it can: {@link Calls} ({@link #calls()}), and {@link Parking} ({@link
 * #parking()}). What else it does is said by its {@link Capability capabilities}. The runtime asks
 * for a role only where it needs one, and refuses, saying which, to start what needs one a bus
 * lacks (docs/engines.md).
 */
public interface Bus extends AutoCloseable {
  /** What a bus does beyond carrying messages at least once, which the runtime and the kit read. */
  enum Capability {
    /**
     * Other processes can consume and serve this bus's queues. A bus without it (the embedded one)
     * is consumed by one process, which hosts every component of its context.
     */
    DISTRIBUTED,
    /**
     * {@link #publish(List)} may hand an event to a consumer of this bus's own that has room before
     * storing it, and return once that consumer's verdict is {@code Done}; {@link #republish(List)}
     * then stores first. A bus without it stores every event before it returns.
     */
    HANDS_FIRST
  }

  /** What this bus does beyond carrying messages at least once; the same for its whole life. */
  Set<Capability> capabilities();

  /** Whether this bus has the capability. */
  default boolean can(Capability capability) {
    return capabilities().contains(capability);
  }

  /** The calls this bus carries, whose callers wait for the answer; empty when it carries none. */
  default Optional<Calls> calls() {
    return Optional.empty();
  }

  /**
   * The parked messages an operator lists, replays and discards; empty when this bus keeps them
   * where they cannot be reached so (it still keeps every message a {@link Verdict.Park} parks).
   */
  default Optional<Parking> parking() {
    return Optional.empty();
  }

  /**
   * Creates the queue if it does not exist and binds it to event labels; idempotent. Events
   * published to a label before a queue was bound to it are not delivered to that queue.
   */
  void declare(String queue, Set<String> labels);

  /** Delivers an event to every queue bound to its label; durable when it returns. */
  void publish(Message event);

  /**
   * Delivers each event to every queue bound to its label, as {@link #publish(Message)} does for
   * one; all durable when it returns. A bus writes them together where it can (one transaction, one
   * wait for the broker's confirms), which is what a publisher with many events at hand asks for.
   * When it throws, any of them may have been delivered: the caller publishes them all again, under
   * the same ids. This default publishes them one at a time.
   *
   * <p>Durable means stored in its queues, or handled there: a bus that {@link
   * Capability#HANDS_FIRST hands first} may hand an event to a consumer of its own that has room
   * before storing it, and return once the consumer's verdict is {@code Done}, storing only what
   * the consumer did not finish with {@code Done} in time. The publisher keeps the events until
   * this returns (an outbox entry stays unpublished), so a crash meanwhile publishes them again:
   * with {@link #republish}.
   */
  default void publish(List<Message> events) {
    for (Message event : events) publish(event);
  }

  /**
   * Publishes events that may have been delivered before: those of an outbox entry found
   * unpublished once its committer's claim ended, whose committer may have died while a consumer
   * handled them. As {@link #publish(List)}, except that a bus which hands events to consumers
   * before storing them stores these first, so that a message whose handling kills the process has
   * its attempts counted and is parked in the end, rather than delivered uncounted forever. This
   * default is {@link #publish(List)}, right for a bus that does not {@link Capability#HANDS_FIRST
   * hand first}.
   */
  default void republish(List<Message> events) {
    publish(events);
  }

  /** Puts a message on one queue; durable when it returns. */
  void send(String queue, Message message);

  /**
   * Starts handing the queue's messages to the handler, on the bus's own threads, until the
   * subscription is closed. A message whose handler throws is delivered again later.
   *
   * @throws IllegalStateException when this bus cannot consume here, such as an embedded bus whose
   *     file another process already consumes; the message says why
   */
  Subscription consume(String queue, Handler handler);

  /** How many messages wait in the queue, due or not, excluding parked ones. */
  long depth(String queue);

  /**
   * How many messages wait in the queue for the consumers taking from it now, counted as {@link
   * #depth(String)} counts them (a bus may leave out those waiting for a retry's delay, which wait
   * for time rather than for a consumer); empty when no consumer takes from it (here or, on a
   * {@link Capability#DISTRIBUTED distributed} bus, in another process), since then what waits
   * there waits for a consumer to come, not behind others. One cheap question (a count, a passive
   * declare), asked a few dozen times a second while callers are busy: the runtime holds back new
   * calls of a component while the queues of its events' receivers are long. A queue that does not
   * exist has no consumer. This default is empty: a bus that cannot tell is never waited for.
   */
  default OptionalLong backlog(String queue) {
    return OptionalLong.empty();
  }

  /** What this bus is, for messages. */
  String describe();

  @Override
  void close();

  /** Calls whose callers wait for the answer: a role a bus has as it can ({@link Bus#calls()}). */
  interface Calls {
    /**
     * Sends a call to the responder serving the queue and waits at most {@code timeout} for its
     * answer. The call is {@link Response.Unserved} at once, and not sent, when nobody serves the
     * queue. A call sent is not retried by the bus and never parked: a responder that fails answers
     * the failure. A call nobody took before the timeout is dropped; one a responder holds when its
     * process dies is handed to another responder, when the bus can, whose answer still reaches the
     * caller while it waits. So a call may run more than once, always with the same {@link
     * Message#id()}: the runtime's identity, which its inbox recognises.
     *
     * <p>Thread-safe; any number of calls may wait at once.
     */
    Response request(String queue, Message call, Duration timeout);

    /**
     * Starts answering the calls sent to the queue, on the bus's own threads, until the
     * subscription is closed. A call is acknowledged only after its answer was sent; a responder
     * that throws (or answers null) sends none, and its caller gets {@link Response.Unanswered}, by
     * its timeout at the latest. Any number of responders, in this process or, on a {@link
     * Capability#DISTRIBUTED distributed} bus, in others, may serve one queue: each call goes to
     * one of them.
     */
    Subscription serve(String queue, Responder responder);
  }

  /**
   * The parked messages, for an operator: a role a bus has as it can ({@link Bus#parking()}). Every
   * bus keeps aside what a {@link Verdict.Park} parks; this is how they are reached.
   */
  interface Parking {
    /** The parked messages, oldest first. */
    List<Parked> parked();

    /**
     * How many messages are parked, over all queues: one cheap question to the bus (an indexed
     * count, a queue's message count), never a listing, so that a metrics scrape may ask it. A
     * message that another caller of {@link #parked()} or {@link #replay(String)} holds at that
     * moment may be left out.
     */
    long parkedCount();

    /**
     * Puts a parked message back on its queue, due now, keeping its attempt count and when it first
     * failed.
     *
     * @return false when there is no parked message with that id
     */
    boolean replay(String parkedId);

    /**
     * Removes a parked message for good: an operator gave up on it, for the reason given, which the
     * bus logs with the message's id and queue (the runtime keeps it durably, in {@code
     * system.messages}).
     *
     * @return false when there is no parked message with that id
     */
    boolean discard(String parkedId, String reason);
  }

  /** Handles one delivery and answers what to do with it. */
  @FunctionalInterface
  interface Handler {
    Verdict handle(Delivery delivery);
  }

  /** Answers one call: the reply's body is the answer; its id and label are the responder's. */
  @FunctionalInterface
  interface Responder {
    Message answer(Delivery call);
  }

  /**
   * A running consumer; closing it stops deliveries and waits, for a bounded time, for those in
   * progress. A verdict reached after that is lost, and its message comes again.
   */
  interface Subscription extends AutoCloseable {
    @Override
    void close();
  }
}
