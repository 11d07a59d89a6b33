package io.toa4j.runtime;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ContextManifest;
import io.toa4j.manifest.OperationType;
import io.toa4j.spi.Bus;
import io.toa4j.spi.OutboxEntry;
import io.toa4j.spi.Storage;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * A running context, made by {@link #builder()}: its components compiled, bound and connected to
 * their storage and bus, its receivers, task queues and call queues consuming, its outbox
 * publishing.
 *
 * <p>Three faces: calls ({@link #call}, {@link #answer}: run here when this process hosts the
 * component, else sent to a process that does), {@link #admin()} (parked messages, replay, the
 * outbox backlog, health), and {@link #close()}.
 *
 * <p>A process may host a subset of the components, on a bus that other processes share: every
 * component is loaded, so calls know every operation, but only the hosted ones open their stores,
 * consume their queues and publish their outbox. One {@linkplain ToaBuilder#connect() connected}
 * instead of built hosts nothing and compiles nothing: its calls go over the bus, and its engines
 * are opened when first needed.
 *
 * <p>Thread-safe: any number of calls may run at once. Closing it stops delivery and releases the
 * bus and the storage; calls made after that fail.
 *
 * <p>About 400 lines because the public faces are documented methods and {@link #start} wires every
 * part of a running context in one place, in the order they depend on each other; each part does
 * its work in a class of its own.
 */
public final class Toa implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Toa.class);

  private final ContextManifest context;
  private final Options options;
  private final Path state;
  private final Set<String> hosted;
  private final CompositeMeterRegistry metrics;
  private final Opened<Storage> storage;
  private final Opened<Bus> bus;
  private final Optional<Running> running;
  private final Admin admin;
  private final Tracing tracing;

  /**
   * What a context that hosts components runs: its calls, its deliveries, its outbox, its inbox.
   */
  private record Running(
      Routing routing, Messaging messaging, Publisher publisher, Janitor janitor, Assembly code) {}

  private Toa(
      ContextManifest context,
      Options options,
      Path state,
      Set<String> hosted,
      CompositeMeterRegistry metrics,
      Opened<Storage> storage,
      Opened<Bus> bus,
      Optional<Running> running,
      Admin admin,
      Tracing tracing) {
    this.context = context;
    this.tracing = tracing;
    this.options = options;
    this.state = state;
    this.hosted = Set.copyOf(hosted);
    this.metrics = metrics;
    this.storage = storage;
    this.bus = bus;
    this.running = running;
    this.admin = admin;
  }

  /** A builder of a context: from a folder, or in code. */
  public static ToaBuilder builder() {
    return new ToaBuilder();
  }

  /**
   * Starts a context whose engines are open and whose code is bound: its components get their
   * stores, its queues are declared and consumed, its outbox swept.
   */
  static Toa start(
      ContextManifest context,
      Options options,
      Path state,
      Set<String> hosted,
      Assembly assembly,
      Storage storage,
      Bus bus,
      List<MeterRegistry> registries,
      Tracing tracing,
      Map<String, JsonNode> configurations) {
    CompositeMeterRegistry metrics = registry(registries);
    var components = assembly.components(storage, hosted);
    Progress progress = new Progress();
    // system.messages: swept by every host when someone receives its events, its store opened at
    // the first parking otherwise
    Optional<Component> messages =
        SystemMessages.announced(assembly.consumed())
            ? Optional.of(
                SystemMessages.component(storage.store(SystemMessages.LABEL), assembly.consumed()))
            : Optional.empty();
    messages.ifPresent(
        m -> Assembly.requireTransactions(SystemMessages.LABEL, false, true, storage));
    List<Component> published =
        new java.util.ArrayList<>(
            components.values().stream().filter(c -> hosted.contains(c.label())).toList());
    messages.ifPresent(published::add);
    Publisher publisher =
        new Publisher(
            bus,
            published,
            assembly.consumed(),
            options.clock(),
            Duration.ofSeconds(context.outboxRetentionSeconds()).toMillis(),
            progress,
            tracing);
    Attempts attempts =
        new Attempts(() -> storage.store(SystemStores.label(Attempts.STORE)), options.clock());
    Engine engine =
        new Engine(
            options,
            publisher,
            metrics,
            tracing,
            context.inboxRetentionSeconds(),
            context.inboxRememberSeconds(),
            attempts);
    Admission admission =
        new Admission(
            bus,
            assembly.receptions(),
            publisher::unpublished,
            options.backlog(),
            options.backlogWait(),
            options.clock(),
            metrics,
            Admission.ASKING);
    progress.listen(admission::progressed); // held calls go as soon as the line is short enough
    Continuity continuity =
        new Continuity(
            () -> storage.store(SystemStores.label(Continuity.STORE)),
            options.clock(),
            options.random());
    Routing routing =
        new Routing(
            context.name(),
            components,
            hosted,
            engine,
            bus,
            options,
            tracing,
            admission,
            configurations,
            continuity,
            publisher::send);
    Janitor janitor =
        new Janitor(
            components.values().stream()
                .filter(c -> hosted.contains(c.label()))
                .filter(
                    c ->
                        c.operations().values().stream()
                            .anyMatch(o -> o.declaration().once().isPresent()))
                .toList(),
            components.values().stream()
                    .anyMatch(
                        c -> hosted.contains(c.label()) && !c.manifest().continuity().isEmpty())
                ? Optional.of(continuity)
                : Optional.empty(),
            options.clock());
    SystemMessages announced =
        new SystemMessages(
            context,
            () ->
                messages
                    .flatMap(Component::store)
                    .orElseGet(() -> storage.store(SystemMessages.LABEL)),
            assembly.consumed(),
            options.clock(),
            options.random(),
            Optional.of(
                new SystemMessages.Committed() {
                  @Override
                  public void committed(OutboxEntry entry) {
                    publisher.committed(messages.orElseThrow(), entry, Optional.empty());
                  }

                  @Override
                  public long claimedUntil(long committed) {
                    return publisher.claimedUntil(committed);
                  }
                }));
    Messaging messaging =
        new Messaging(
            bus,
            assembly.receptions(),
            components.keySet(),
            hosted,
            new Deliveries(
                context.retryDelaysSeconds(),
                metrics,
                options.clock(),
                progress,
                tracing,
                announced),
            routing::invoke,
            tracing,
            () -> metrics.counter(Calls.WAITS).increment());
    gauges(
        metrics,
        components.values().stream().filter(c -> hosted.contains(c.label())).toList(),
        bus);
    Admin admin =
        new Admin(
            () -> bus,
            new Redelivery(context, () -> storage, assembly.consumed(), options.clock()),
            announced,
            Optional.of(publisher),
            Optional.of(messaging),
            () -> storageHealth(components.values()),
            Messaging.tasks(hosted.stream().sorted().findFirst().orElse("none")),
            progress,
            storage::store,
            options.clock());
    Toa toa =
        new Toa(
            context,
            options,
            state,
            hosted,
            metrics,
            Opened.now(storage),
            Opened.now(bus),
            Optional.of(new Running(routing, messaging, publisher, janitor, assembly)),
            admin,
            tracing);
    messaging.start();
    publisher.start();
    janitor.start();
    LOG.info(
        "Context {} is up: hosting {} on {} and {}",
        context.name(),
        new TreeSet<>(hosted),
        storage.describe(),
        bus.describe());
    return toa;
  }

  /** A context that hosts nothing: its engines opened when first needed. */
  static Toa client(
      ContextManifest context,
      Options options,
      Path state,
      Opened<Storage> storage,
      Opened<Bus> bus,
      List<MeterRegistry> registries,
      Tracing tracing) {
    Redelivery redelivery =
        new Redelivery(context, storage::get, Redelivery.consumed(context), options.clock());
    SystemMessages announced =
        new SystemMessages(
            context,
            () -> storage.get().store(SystemMessages.LABEL),
            Redelivery.consumed(context),
            options.clock(),
            options.random(),
            Optional.empty());
    Admin admin =
        new Admin(
            bus::get,
            redelivery,
            announced,
            Optional.empty(),
            Optional.empty(),
            Optional::empty,
            Messaging.tasks("none"),
            new Progress(),
            label -> storage.get().store(label),
            options.clock());
    return new Toa(
        context,
        options,
        state,
        Set.of(),
        registry(registries),
        storage,
        bus,
        Optional.empty(),
        admin,
        tracing);
  }

  /**
   * The gauges of the backlog of each hosted component's outbox and of the parked messages: each an
   * indexed count or a queue's message count, asked at most once per {@link Sampled#PERIOD_MILLIS},
   * never a listing.
   */
  private static void gauges(
      MeterRegistry metrics, java.util.Collection<Component> hosted, Bus bus) {
    for (Component component : hosted) {
      component
          .store()
          .ifPresent(
              store -> {
                Sampled backlog =
                    new Sampled(
                        "the outbox backlog of " + component.label(), store::unpublishedCount);
                Gauge.builder(BACKLOG_GAUGE, backlog::value)
                    .tag("component", component.label())
                    .description("outbox entries committed and not yet published")
                    .register(metrics);
              });
    }
    bus.parking()
        .ifPresent(
            parking -> {
              Sampled parked = new Sampled("the parked messages", parking::parkedCount);
              Gauge.builder(PARKED_GAUGE, parked::value)
                  .description("messages parked after failing, over all queues")
                  .register(metrics);
            });
  }

  /** The gauge of a component's outbox entries not yet published, by {@code component}. */
  static final String BACKLOG_GAUGE = "toa.outbox.backlog";

  /** The gauge of the parked messages. */
  static final String PARKED_GAUGE = "toa.parked";

  private static CompositeMeterRegistry registry(List<MeterRegistry> registries) {
    CompositeMeterRegistry metrics = new CompositeMeterRegistry();
    if (registries.isEmpty()) metrics.add(new SimpleMeterRegistry());
    registries.forEach(metrics::add);
    return metrics;
  }

  private static Optional<String> storageHealth(java.util.Collection<Component> components) {
    try {
      for (Component component : components) component.store().ifPresent(store -> store.page(1, 0));
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("the storage does not answer: " + e.getMessage());
    }
  }

  /**
   * A fresh call identity, for an edge that names its calls itself (the command line prints the
   * identity it used, so the same call can be made again with it).
   */
  public static String newIdentity() {
    return Identities.fresh(new java.security.SecureRandom());
  }

  /**
   * Calls an operation with a fresh identity, as a call from outside the system does.
   *
   * @param endpoint {@code namespace.name.operation}, or {@code name.operation} in the default
   *     namespace
   * @throws Failure when the call fails; nothing was committed
   */
  public Reply call(String endpoint, Request request) {
    return call(endpoint, request, Identities.fresh(options.random()));
  }

  /**
   * Calls an operation under a stated identity: the same identity is the same call.
   *
   * @throws Failure when the call fails; nothing was committed
   */
  public Reply call(String endpoint, Request request, String identity) {
    return answer(endpoint, request, identity).reply();
  }

  /**
   * Calls an operation under a stated identity, as {@link #call(String, Request, String)} does, and
   * tells whether the answer is a replay from the operation's inbox and how long the operation
   * remembers its calls (unknown to a context that hosts nothing: empty there).
   *
   * @throws Failure when the call fails; nothing was committed. With code IDENTITY_REUSED when the
   *     identity was answered before for a different request; ENDPOINT for a component or operation
   *     the context does not have; UNAVAILABLE when no process hosts the component.
   */
  public Answer answer(String endpoint, Request request, String identity) {
    if (running.isPresent()) return running.get().routing().answer(endpoint, request, identity);
    return remote(endpoint, request, identity);
  }

  /** A call from a context that hosts nothing: checked against the context, sent over the bus. */
  private Answer remote(String endpoint, Request request, String identity) {
    Routing.checkIdentity(identity);
    int dot = Routing.checkEndpoint(endpoint);
    String label = endpoint.substring(0, dot);
    String component = label.indexOf('.') < 0 ? "default." + label : label;
    TreeSet<String> known = new TreeSet<>();
    context.components().stream().map(ComponentManifest::label).forEach(known::add);
    if (!known.contains(component)) {
      throw new Failure(
          Failure.Code.ENDPOINT,
          "context "
              + context.name()
              + " has no component '"
              + label
              + "'; it has "
              + String.join(", ", known));
    }
    Result result =
        Calls.request(
            bus.get(),
            tracing,
            component,
            endpoint.substring(dot + 1),
            request,
            identity,
            options.callTimeout());
    return new Answer(
        Routing.reply(result),
        result instanceof Result.Output output && output.replayed(),
        Optional.empty());
  }

  /**
   * The type of an operation of the context, generic ones included.
   *
   * @throws Failure with code ENDPOINT when there is no such component or operation, or when this
   *     context hosts nothing and so bound no code
   */
  public OperationType typeOf(String component, String operation) {
    return running
        .orElseThrow(
            () ->
                new Failure(
                    Failure.Code.ENDPOINT,
                    "context "
                        + context.name()
                        + " hosts nothing here, so it knows no operation types"))
        .routing()
        .typeOf(component, operation);
  }

  /**
   * Whether the operation answers a page of records (the generic {@code enumerate}, or an operation
   * forwarded to it), so that its query takes criteria, sort, limit and omit.
   *
   * @throws Failure as {@link #typeOf} does
   */
  public boolean enumerates(String component, String operation) {
    Operation found =
        running
            .orElseThrow(
                () ->
                    new Failure(
                        Failure.Code.ENDPOINT,
                        "context "
                            + context.name()
                            + " hosts nothing here, so it knows no operations"))
            .routing()
            .operation(component, operation);
    return found.generic() && found.implementation().equals("enumerate");
  }

  /** The operator's face: parked messages, replay, the outbox backlog, health, settling. */
  public Admin admin() {
    return admin;
  }

  /**
   * Whether other processes share this context's bus, hosting components of their own; when not,
   * this process hosts every component.
   */
  public boolean distributed() {
    return bus.get().can(Bus.Capability.DISTRIBUTED);
  }

  /** The labels of the components this process hosts; empty for a context that hosts nothing. */
  public Set<String> hosted() {
    return hosted;
  }

  /** The context as declared. */
  public ContextManifest context() {
    return context;
  }

  /**
   * The OpenTelemetry the context records its spans with, for an edge in front of it (the HTTP
   * gateway) to record its own spans in the same traces.
   */
  public OpenTelemetry openTelemetry() {
    return tracing.openTelemetry();
  }

  /** The folder of the context's own state ({@code .toa/}): compiled classes, engine files. */
  public Path state() {
    return state;
  }

  /**
   * The meters of what the runtime did ({@code toa.messages} by queue and outcome, discards, inbox
   * answers, the outbox backlog, ...): the registries given to the builder, or one of its own.
   */
  public MeterRegistry metrics() {
    return metrics;
  }

  /** Sends every meter to another registry too, such as a Prometheus one. */
  public void publishMetricsTo(MeterRegistry registry) {
    metrics.add(registry);
  }

  /** The storage, opened if it is not yet: for the runtime's own tests, which write beside it. */
  Storage storage() {
    return storage.get();
  }

  /** What the storage and the bus are, for messages; opens them if they are not open yet. */
  public String describe() {
    return storage.get().describe() + " and " + bus.get().describe();
  }

  /** The clock the context reads time from: the injected one, so tests move it. */
  public Clock clock() {
    return options.clock();
  }

  @Override
  public void close() {
    running.ifPresent(
        r -> {
          r.messaging().close();
          r.janitor().close();
          r.publisher().close();
        });
    try {
      bus.close();
    } finally {
      try {
        storage.close();
      } finally {
        running.ifPresent(
            r -> r.code().close()); // the components' loaders, once none of their code runs
      }
    }
  }
}
