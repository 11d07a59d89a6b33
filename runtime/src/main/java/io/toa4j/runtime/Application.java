package io.toa4j.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.toa4j.api.Context;
import io.toa4j.api.Failure;
import io.toa4j.api.Remote;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ContextManifest;
import io.toa4j.manifest.Manifests;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A booted context: its components compiled, bound and connected to their storage and bus, its
 * receivers, task queues and call queues consuming, its outbox publishing.
 *
 * <p>A process may host a subset of the components, on a bus that other processes share: every
 * component is loaded, so calls know every operation, but only the hosted ones open their stores,
 * consume their queues and publish their outbox. A call to a component hosted elsewhere goes over
 * the bus to its call queue and waits for the answer ({@link Calls}).
 *
 * <p>Longer than 400 lines because boot, call routing and the operations' {@link Context} meet
 * here; what can stand alone does ({@link Hosting}, {@link Calls}, {@link Messaging}, {@link
 * Engine}).
 *
 * <p>Thread-safe: any number of calls may run at once. Closing it stops delivery and releases the
 * bus and the storage; calls made after that fail.
 */
public final class Application implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Application.class);
  private static final int MAX_IDENTITY = 255;

  private final ContextManifest context;
  private final Options options;
  private final Storage storage;
  private final Bus bus;
  private final Map<String, Component> components;
  private final Set<String> hosted;
  private final CompositeMeterRegistry metrics = new CompositeMeterRegistry();
  private final Engine engine;
  private final Publisher publisher;
  private final Janitor janitor;
  private final Messaging messaging;

  private Application(
      ContextManifest context,
      Options options,
      Storage storage,
      Bus bus,
      Map<String, Component> components,
      Set<String> hosted,
      List<Reception> receptions) {
    this.context = context;
    this.options = options;
    this.storage = storage;
    this.bus = bus;
    this.components = components;
    this.hosted = Set.copyOf(hosted);
    Set<String> consumed = receptions.stream().map(Reception::label).collect(Collectors.toSet());
    this.publisher =
        new Publisher(
            bus,
            components.values().stream().filter(c -> hosted.contains(c.label())).toList(),
            consumed,
            options.clock(),
            Duration.ofSeconds(context.outboxRetentionSeconds()).toMillis());
    metrics.add(new SimpleMeterRegistry());
    this.engine = new Engine(options, publisher, metrics, context.inboxRetentionSeconds());
    Gauge.builder("toa.outbox.backlog", publisher, Publisher::backlog)
        .description("outbox entries not yet published")
        .register(metrics);
    Gauge.builder("toa.parked", bus, b -> b.parked().size())
        .description("messages parked after failing")
        .register(metrics);
    this.janitor =
        new Janitor(
            components.values().stream()
                .filter(c -> hosted.contains(c.label()))
                .filter(c -> c.operations().values().stream().anyMatch(o -> o.declaration().once().isPresent()))
                .toList(),
            options.clock());
    this.messaging =
        new Messaging(
            bus, receptions, components.keySet(), hosted, new Deliveries(context.retryDelaysSeconds(), metrics), this::invoke);
  }

  /** Boots the context in the folder with the default options. */
  public static Application boot(Path directory) {
    return boot(directory, Options.defaults());
  }

  /**
   * Boots the context in the folder: loads its manifests, compiles its components' code, binds
   * their operations, events and receivers, opens their storage and bus, and starts delivering.
   *
   * @throws io.toa4j.manifest.ManifestException when a manifest does not fit
   * @throws StartupException when the code does not compile or fit, or an engine is missing
   */
  public static Application boot(Path directory, Options options) {
    return boot(directory, options, Set.of());
  }

  /**
   * Boots the context in the folder, hosting some of its components: only they open their stores
   * and consume their queues; calls to the others go to the processes that host them.
   *
   * @param hosted the labels of the components to host ({@code namespace.name}, or {@code name} in
   *     the default namespace); every component when empty
   * @throws StartupException when a label names no component, or when a subset is asked of a bus
   *     that other processes cannot share (the embedded one), where one process hosts every
   *     component
   */
  public static Application boot(Path directory, Options options, java.util.Collection<String> hosted) {
    ContextManifest context = Manifests.loadContext(directory);
    Set<String> hosting = Hosting.of(context, hosted);
    Path state = context.directory().resolve(".toa");
    Engines engines = Engines.open(context, state, options);
    try {
      Hosting.requireShared(context, hosting, engines.bus());
      Application application = assemble(context, options, engines.storage(), engines.bus(), state, hosting);
      application.start();
      LOG.info(
          "Context {} is up: hosting {} on {} and {}",
          context.name(), new java.util.TreeSet<>(hosting), engines.storage().describe(), engines.bus().describe());
      return application;
    } catch (RuntimeException e) {
      engines.close();
      throw e;
    }
  }

  /**
   * Compiles and binds every component before any store is opened, so a context that does not fit
   * leaves no state behind; then opens the stores of the hosted ones that keep state.
   */
  private static Application assemble(
      ContextManifest context, Options options, Storage storage, Bus bus, Path state, Set<String> hosted) {
    Map<String, ComponentCode> codes = new LinkedHashMap<>();
    Map<String, Map<String, Operation>> operations = new LinkedHashMap<>();
    Map<String, Announcements> announcements = new LinkedHashMap<>();
    for (ComponentManifest manifest : context.components()) {
      ComponentCode code = ComponentCode.load(manifest, state.resolve("classes"));
      codes.put(manifest.label(), code);
      operations.put(manifest.label(), Components.bind(manifest, code));
      announcements.put(manifest.label(), Announcements.bind(manifest, code));
    }
    List<Reception> receptions = new ArrayList<>();
    for (ComponentManifest manifest : context.components()) {
      receptions.addAll(Reception.bind(manifest, codes.get(manifest.label()), announcements));
    }
    Set<String> consumed = receptions.stream().map(Reception::label).collect(Collectors.toSet());
    Map<String, Component> components = new LinkedHashMap<>();
    for (ComponentManifest manifest : context.components()) {
      Announcements announced = announcements.get(manifest.label());
      Set<String> mine = new HashSet<>();
      for (String name : announced.names()) {
        if (consumed.contains(manifest.label() + "." + name)) mine.add(manifest.label() + "." + name);
      }
      boolean once = operations.get(manifest.label()).values().stream().anyMatch(o -> o.declaration().once().isPresent());
      boolean here = hosted.contains(manifest.label());
      if (here) requireTransactions(manifest.label(), once, !mine.isEmpty(), storage);
      components.put(
          manifest.label(),
          new Component(
              manifest,
              operations.get(manifest.label()),
              manifest.entity().filter(e -> here).map(e -> storage.store(manifest.label())),
              announced,
              Set.copyOf(mine)));
    }
    return new Application(context, options, storage, bus, Map.copyOf(components), hosted, List.copyOf(receptions));
  }

  /**
   * Refuses a component whose declarations need rows committed with its records (an inbox for
   * once, an outbox for consumed events) on a storage that cannot commit them together.
   */
  static void requireTransactions(String component, boolean once, boolean announces, Storage storage) {
    if (storage.transactional()) return;
    if (once) {
      throw new StartupException(
          "Component " + component + " declares once, which needs an inbox committed with its records, but "
              + storage.describe() + " has no transactions; use a transactional storage, or remove once");
    }
    if (announces) {
      throw new StartupException(
          "Component " + component + " announces events that are consumed, which needs an outbox committed with"
              + " its records, but " + storage.describe() + " has no transactions; use a transactional storage");
    }
  }

  /** Starts consuming every queue, sweeping the outbox and clearing the inbox. */
  private void start() {
    messaging.start();
    publisher.start();
    janitor.start();
  }

  /**
   * A fresh call identity, for an edge that names its calls itself (the command line prints the
   * identity it used, so the same call can be made again with it).
   */
  public static String newIdentity() {
    return Identities.fresh(new java.security.SecureRandom());
  }

  /**
   * The type of an operation of a component this application hosts, generic ones included.
   *
   * @throws Failure with code ENDPOINT when there is no such component or operation
   */
  public io.toa4j.manifest.OperationType typeOf(String component, String operation) {
    return operation(component(component), operation).type();
  }

  /**
   * Whether other processes share this context's bus, hosting components of their own; when not,
   * this process hosts every component.
   */
  public boolean distributed() {
    return bus.distributed();
  }

  /** The labels of the components this process hosts. */
  public Set<String> hosted() {
    return hosted;
  }

  /** The context as declared. */
  public ContextManifest context() {
    return context;
  }

  /** Counters of what delivery did: {@code toa.messages} by queue and outcome. */
  public MeterRegistry metrics() {
    return metrics;
  }

  /** Sends every meter of this application to another registry too, such as a Prometheus one. */
  public void publishMetricsTo(MeterRegistry registry) {
    metrics.add(registry);
  }

  /**
   * A store the runtime keeps for itself on the context's storage, beside the components' stores:
   * {@code system.<name>}, in the namespace no component may declare. See {@link SystemStores}.
   */
  public Store systemStore(String name) {
    return storage.store(SystemStores.label(name));
  }

  /** The clock the application reads time from: the injected one, so tests move it. */
  public java.time.Clock clock() {
    return options.clock();
  }

  /**
   * Whether the storage and the bus answer: empty when they do, else what does not.
   */
  public Optional<String> health() {
    try {
      for (Component component : components.values()) component.store().ifPresent(store -> store.page(1, 0));
    } catch (RuntimeException e) {
      return Optional.of("the storage does not answer: " + e.getMessage());
    }
    try {
      bus.depth(Messaging.tasks(hosted.stream().findFirst().orElse("none")));
    } catch (RuntimeException e) {
      return Optional.of("the bus does not answer: " + e.getMessage());
    }
    return Optional.empty();
  }

  /**
   * Calls an operation with a fresh identity, as a call from outside the system does.
   *
   * @param endpoint {@code namespace.name.operation}, or {@code name.operation} in the default namespace
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
   * remembers its calls.
   *
   * @throws Failure when the call fails; nothing was committed. With code IDENTITY_REUSED when the
   *     identity was answered before for a different request.
   */
  public Answer answer(String endpoint, Request request, String identity) {
    if (identity.isBlank() || identity.length() > MAX_IDENTITY) {
      throw new Failure(Failure.Code.CONTRACT, "a call identity is 1 to " + MAX_IDENTITY + " characters; got " + identity.length());
    }
    int dot = endpoint.lastIndexOf('.');
    if (dot <= 0 || dot == endpoint.length() - 1) {
      throw new Failure(
          Failure.Code.ENDPOINT, "'" + endpoint + "' is not an endpoint; write namespace.name.operation, such as billing.wallets.observe");
    }
    String label = endpoint.substring(0, dot);
    String name = endpoint.substring(dot + 1);
    Result result = invoke(label, name, request, identity);
    Optional<Duration> retention = engine.retentionSeconds(operation(component(label), name)).map(Duration::ofSeconds);
    return new Answer(reply(result), result instanceof Result.Output output && output.replayed(), retention);
  }

  /**
   * Waits until every event the context's writes announced is published and every message is
   * handled (or parked), at most {@code timeout}. A storage or bus that cannot answer for a while
   * (a server restarting, a connection recovering) is waited for like anything else pending.
   *
   * @return empty when all is settled; else what is still pending, in words
   */
  public Optional<String> settle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<String> pending = new ArrayList<>();
      try {
        long backlog = publisher.backlog();
        if (backlog > 0) pending.add(backlog + " outbox entr(ies) not yet published (events, tasks)");
      } catch (RuntimeException e) { // the storage is away for now: nothing can be said settled
        pending.add("the outbox cannot be read: " + e.getMessage());
      }
      try {
        pending.addAll(messaging.pending());
      } catch (RuntimeException e) { // the bus is away for now, or reconnecting
        pending.add("the queues cannot be counted: " + e.getMessage());
      }
      if (pending.isEmpty()) return Optional.empty();
      if (System.nanoTime() > deadline) return Optional.of(String.join("; ", pending));
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.of(String.join("; ", pending));
      }
    }
  }

  /** The parked messages of the context's bus, oldest first. */
  public List<Parked> parked() {
    return bus.parked();
  }

  /** Puts a parked message back on its queue; false when there is none with that id. */
  public boolean replay(String parkedId) {
    return bus.replay(parkedId);
  }

  /** Runs the call here when this process hosts its component, else at a process that does. */
  private Result invoke(String label, String name, Request request, String identity) {
    Component component = component(label);
    Operation operation = operation(component, name);
    if (!hosted.contains(component.label())) {
      return Calls.request(bus, component.label(), name, request, identity, options.callTimeout());
    }
    return engine.invoke(
        component, operation, new Invocation(request.query(), Requests.input(request), identity),
        (served, outgoing) -> new CallContext(component, operation, served.identity(), outgoing));
  }

  private static Operation operation(Component component, String name) {
    Operation operation = component.operations().get(name);
    if (operation == null) {
      throw new Failure(
          Failure.Code.ENDPOINT,
          "component " + component.label() + " has no operation '" + name + "'; it has "
              + String.join(", ", component.operations().keySet().stream().sorted().toList()));
    }
    return operation;
  }

  private Component component(String label) {
    String full = label.indexOf('.') < 0 ? "default." + label : label;
    Component component = components.get(full);
    if (component == null) {
      throw new Failure(
          Failure.Code.ENDPOINT,
          "context " + context.name() + " has no component '" + label + "'; it has " + String.join(", ", components.keySet().stream().sorted().toList()));
    }
    return component;
  }

  static Reply reply(Result result) {
    if (result instanceof Result.Refused refused) return new Reply.Refused(refused.refusal());
    JsonNode value = ((Result.Output) result).value();
    return new Reply.Output(value.isMissingNode() ? Optional.empty() : Optional.ofNullable(Binding.plain(value)));
  }

  @Override
  public void close() {
    messaging.close();
    janitor.close();
    publisher.close();
    bus.close();
    storage.close();
  }

  /**
   * What one attempt of a running operation reaches: the calls and tasks it makes carry identities
   * derived from its own and their ordinal in the attempt, its tasks wait in {@code outgoing} for
   * the engine to let them leave, and a transition that retries may not call an operation that
   * declares once.
   */
  private final class CallContext implements Context {
    private final Component serving;
    private final Operation operation;
    private final String identity;
    private final Outgoing outgoing;
    private final AtomicInteger ordinal = new AtomicInteger();

    CallContext(Component serving, Operation operation, String identity, Outgoing outgoing) {
      this.serving = serving;
      this.operation = operation;
      this.identity = identity;
      this.outgoing = outgoing;
    }

    @Override
    public Remote remote(String label) {
      Component target = component(label);
      return new Remote() {
        @Override
        public Reply call(String name, Request request) {
          repeatable(target, operation(target, name));
          return reply(invoke(target.label(), name, request, Identities.derive(identity, ordinal.incrementAndGet())));
        }

        // held until the run may send it (Outgoing); unlike a call, a task may go to a once operation
        @Override
        public void task(String name, Request request) {
          operation(target, name);
          outgoing.task(Identities.derive(identity, ordinal.incrementAndGet()), target.label() + "." + name, Requests.tree(request));
        }
      };
    }

    /**
     * Refuses, before anything is sent, a call from a transition that retries to an operation that
     * declares once: a call leaves during its attempt, and an attempt repeated after a lost write
     * may ask for something else under the same derived identity, which the inbox would answer with
     * the first answer. A task needs no such rule: only the committed attempt's tasks leave.
     */
    private void repeatable(Component target, Operation callee) {
      boolean retried = operation.type() == io.toa4j.manifest.OperationType.TRANSITION
          && operation.declaration().concurrency() == io.toa4j.manifest.Concurrency.RETRY;
      if (retried && callee.declaration().once().isPresent()) {
        throw new Failure(
            Failure.Code.UNREPEATABLE,
            target.label() + "." + callee.name() + " is made once, and " + serving.label() + "." + operation.name()
                + " is a transition retried on a lost write, which would make the call again with other content;"
                + " call it from a receiver of this component's event, or from an effect, or declare "
                + operation.name() + " concurrency: none");
      }
    }

    @Override
    public String identity() {
      return identity;
    }
  }
}
