package io.toa4j.runtime;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ContextManifest;
import io.toa4j.manifest.EngineDeclaration;
import io.toa4j.manifest.Location;
import io.toa4j.manifest.Manifests;
import io.toa4j.manifest.Once;
import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Builds a {@link Toa}: a context read from a folder, or declared in code, or both (a folder's
 * context with more components, other engines or other settings laid over it).
 *
 * <pre>{@code
 * try (Toa toa = Toa.builder()
 *     .name("shop")
 *     .component(Path.of("components/billing.wallets"))
 *     .storage("sqlite", Map.of("path", dir.resolve("storage")))
 *     .bus("embedded", Map.of())
 *     .meterRegistry(registry)
 *     .openTelemetry(openTelemetry)
 *     .build()) {
 *   Reply reply = toa.call("billing.wallets.credit", Request.of(id, input), identity);
 * }
 * }</pre>
 *
 * <p>Engines are found by name among the providers on the class path ({@link
 * java.util.ServiceLoader}) and those given with {@link #engine(StorageProvider)} and {@link
 * #engine(BusProvider)}; each checks its own options. The {@code TOA_STORAGE}, {@code
 * TOA_STORAGE_URL}, {@code TOA_BUS} and {@code TOA_BUS_URL} variables of the options' environment
 * override the engines a folder's context names, never the ones named here in code.
 *
 * <p>Not thread-safe; build once.
 *
 * <p>Over 400 lines because every setting is a documented method of the public API; what the
 * builder does with them is short ({@link #build()}, {@link #connect()}, and the context laid
 * together in {@code context()}), and the work is elsewhere ({@link Assembly}, {@link
 * EngineRegistry}, {@link Engines}, {@link Toa}).
 */
public final class ToaBuilder {
  private static final Logger LOG = LoggerFactory.getLogger(ToaBuilder.class);
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");
  private static final Path CODE = Path.of("Toa.builder()");

  private Optional<Path> directory = Optional.empty();
  private Optional<String> name = Optional.empty();
  private final List<Source> components = new ArrayList<>();
  private Optional<EngineDeclaration> storage = Optional.empty();
  private Optional<EngineDeclaration> bus = Optional.empty();
  private final List<StorageProvider> storageProviders = new ArrayList<>();
  private final List<BusProvider> busProviders = new ArrayList<>();
  private Optional<Long> inboxRetentionSeconds = Optional.empty();
  private Optional<Long> inboxRememberSeconds = Optional.empty();
  private Optional<Long> outboxRetentionSeconds = Optional.empty();
  private Optional<List<Long>> retryDelaysSeconds = Optional.empty();
  private Options options = Options.defaults();
  private final List<MeterRegistry> registries = new ArrayList<>();
  private Optional<OpenTelemetry> openTelemetry = Optional.empty();
  private Set<String> hosting = Set.of();
  private Optional<Path> state = Optional.empty();
  private boolean announceAll;

  ToaBuilder() {}

  /** Where a component's manifest comes from. */
  private sealed interface Source {
    ComponentManifest read();
  }

  private record Folder(Path folder) implements Source {
    public ComponentManifest read() {
      return Manifests.loadComponent(folder);
    }
  }

  private record Text(String label, String text, String origin) implements Source {
    public ComponentManifest read() {
      return Manifests.readComponent(text, label, origin);
    }
  }

  /**
   * The context declared in this folder's {@code context.toa.yaml}: its name, components, engines
   * and settings, each of which this builder's other methods may change. Its state is kept under
   * the folder's {@code .toa/} unless {@link #state(Path)} says otherwise.
   */
  public ToaBuilder directory(Path directory) {
    this.directory = Optional.of(Objects.requireNonNull(directory, "directory"));
    return this;
  }

  /** The context's name: a lowercase letter and up to 31 lowercase letters, digits or dashes. */
  public ToaBuilder name(String name) {
    if (!NAME.matcher(Objects.requireNonNull(name, "name")).matches()) {
      throw new IllegalArgumentException(
          "'"
              + name
              + "' is not a context name: a lowercase letter followed by up to 31 lowercase letters, digits or dashes");
    }
    this.name = Optional.of(name);
    return this;
  }

  /** A component from its folder: its {@code manifest.toa.yaml}, and its sources if it has any. */
  public ToaBuilder component(Path folder) {
    components.add(new Folder(Objects.requireNonNull(folder, "folder")));
    return this;
  }

  /**
   * A component declared in code: its manifest's text, as {@code manifest.toa.yaml} would hold it;
   * its classes are found on the class path under the package {@code namespace.name} ({@code
   * billing.wallets.operations.Credit}).
   *
   * @param label {@code namespace.name}, or {@code name} in the default namespace
   */
  public ToaBuilder component(String label, String manifest) {
    components.add(
        new Text(
            Objects.requireNonNull(label, "label"),
            Objects.requireNonNull(manifest, "manifest"),
            "code:" + label));
    return this;
  }

  /**
   * A component from the class path: its manifest is the resource {@code manifest.toa.yaml} in the
   * package {@code namespace.name} ({@code billing/wallets/manifest.toa.yaml}), beside its classes.
   *
   * @param label {@code namespace.name}, or {@code name} in the default namespace
   * @throws IllegalArgumentException when there is no such resource
   */
  public ToaBuilder componentOnClassPath(String label) {
    String resource =
        packageOf(Objects.requireNonNull(label, "label")).replace('.', '/') + "/manifest.toa.yaml";
    ClassLoader loader = ToaBuilder.class.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException(
            "There is no "
                + resource
                + " on the class path for component "
                + label
                + "; put its manifest there, beside its classes");
      }
      components.add(
          new Text(
              label,
              new String(in.readAllBytes(), StandardCharsets.UTF_8),
              "classpath:" + resource));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + resource + " from the class path", e);
    }
    return this;
  }

  /** The conventional package of a component's classes, as {@link ComponentCode} looks them up. */
  private static String packageOf(String label) {
    String lower = label.toLowerCase(java.util.Locale.ROOT);
    return lower.startsWith("default.") ? lower.substring("default.".length()) : lower;
  }

  /**
   * The storage engine, by name, with its options (values as text: {@code toString()} of each). The
   * engine checks them when it opens; an unknown one is refused by name.
   */
  public ToaBuilder storage(String engine, Map<String, ?> options) {
    this.storage = Optional.of(engine(engine, options, "storage"));
    return this;
  }

  /** The bus, by name, with its options, as {@link #storage(String, Map)}. */
  public ToaBuilder bus(String engine, Map<String, ?> options) {
    this.bus = Optional.of(engine(engine, options, "bus"));
    return this;
  }

  private static EngineDeclaration engine(String engine, Map<String, ?> options, String what) {
    if (!NAME.matcher(Objects.requireNonNull(engine, what)).matches()) {
      throw new IllegalArgumentException(
          "'"
              + engine
              + "' is not an engine name: a lowercase letter followed by up to 31 lowercase letters, digits or dashes");
    }
    Map<String, String> text = new TreeMap<>();
    options.forEach(
        (k, v) ->
            text.put(
                Objects.requireNonNull(k, "an option's name"),
                String.valueOf(Objects.requireNonNull(v, k))));
    return new EngineDeclaration(engine, text, new Location(CODE, what));
  }

  /** A storage engine given in code, found by its name like those on the class path. */
  public ToaBuilder engine(StorageProvider provider) {
    storageProviders.add(Objects.requireNonNull(provider, "provider"));
    return this;
  }

  /** A bus given in code, found by its name like those on the class path. */
  public ToaBuilder engine(BusProvider provider) {
    busProviders.add(Objects.requireNonNull(provider, "provider"));
    return this;
  }

  /**
   * How long a {@code once} call's answer is given when its operation states no time; at least 600
   * s.
   */
  public ToaBuilder inboxRetention(Duration retention) {
    this.inboxRetentionSeconds = Optional.of(inboxWindow("retention", retention));
    return this;
  }

  /**
   * How long the record that a {@code once} call was answered is kept when its operation states no
   * time, so that a repeat after its answer's window is refused as already answered rather than
   * run; at least 600 s, and never shorter than the answer's window.
   */
  public ToaBuilder inboxRemember(Duration remember) {
    this.inboxRememberSeconds = Optional.of(inboxWindow("remember", remember));
    return this;
  }

  private static long inboxWindow(String name, Duration window) {
    long seconds = window.toSeconds();
    if (seconds < Once.MINIMUM_SECONDS) {
      throw new IllegalArgumentException(
          "an inbox " + name + " is " + Once.MINIMUM_SECONDS + " seconds or more; got " + window);
    }
    return seconds;
  }

  /** How long published outbox entries are kept; at least 60 s. */
  public ToaBuilder outboxRetention(Duration retention) {
    long seconds = retention.toSeconds();
    if (seconds < 60)
      throw new IllegalArgumentException(
          "an outbox retention is 60 seconds or more; got " + retention);
    this.outboxRetentionSeconds = Optional.of(seconds);
    return this;
  }

  /**
   * The waits before each retry of a message whose handling failed, in whole seconds; a message is
   * parked after one attempt more than there are delays.
   */
  public ToaBuilder retryDelays(Duration... delays) {
    List<Long> seconds = new ArrayList<>();
    for (Duration delay : delays) {
      if (delay.isNegative())
        throw new IllegalArgumentException("a retry delay is never negative; got " + delay);
      seconds.add(delay.toSeconds());
    }
    this.retryDelaysSeconds = Optional.of(List.copyOf(seconds));
    return this;
  }

  /** Time, randomness, retries, environment and waits, all at once. */
  public ToaBuilder options(Options options) {
    this.options = Objects.requireNonNull(options, "options");
    return this;
  }

  /** The clock that stamps records and decides when messages are due. */
  public ToaBuilder clock(Clock clock) {
    this.options = options.withClock(clock);
    return this;
  }

  /** The random source of ids, identities and retry jitter. */
  public ToaBuilder random(RandomGenerator random) {
    this.options = options.withRandom(random);
    return this;
  }

  /** How a transition that lost its compare-and-swap is retried. */
  public ToaBuilder retry(RetryPolicy retry) {
    this.options = options.withRetry(retry);
    return this;
  }

  /**
   * A registry the host owns, where the runtime's meters go; several may be given. Without one, the
   * context keeps its own.
   */
  public ToaBuilder meterRegistry(MeterRegistry registry) {
    registries.add(Objects.requireNonNull(registry, "registry"));
    return this;
  }

  /**
   * The OpenTelemetry the host owns, where the runtime's spans go: a span per call, commit, message
   * published or sent, delivery, and call between processes, joined into one trace across
   * processes. Without one, the context uses {@link GlobalOpenTelemetry}, which records nothing
   * until an SDK is installed there.
   */
  public ToaBuilder openTelemetry(OpenTelemetry openTelemetry) {
    this.openTelemetry = Optional.of(Objects.requireNonNull(openTelemetry, "openTelemetry"));
    return this;
  }

  private Tracing tracing() {
    return new Tracing(openTelemetry.orElseGet(GlobalOpenTelemetry::get));
  }

  /**
   * The components this process hosts (every one when none is named): only they open their stores
   * and consume their queues; calls to the others go to the processes that host them, which needs a
   * bus that processes share.
   */
  public ToaBuilder host(Collection<String> labels) {
    this.hosting = Set.copyOf(labels);
    return this;
  }

  /** The components this process hosts, as {@link #host(Collection)}. */
  public ToaBuilder host(String... labels) {
    return host(Arrays.asList(labels));
  }

  /**
   * The folder of the context's own state (compiled classes, the embedded engines' files): the
   * folder's {@code .toa/} for a context read from a folder, else {@code .toa} in the working
   * directory.
   */
  public ToaBuilder state(Path state) {
    this.state = Optional.of(Objects.requireNonNull(state, "state"));
    return this;
  }

  /**
   * Publishes every event the hosted components announce, whether or not a receiver of the context
   * consumes it, for an observer of the bus outside the context's receivers: a test that asserts
   * what was announced ({@code toa4j-test}). Without it, an event no receiver consumes is not
   * rendered, and a component none of whose events is consumed keeps no outbox. It costs an outbox
   * entry per write of every component with an entity; an event no queue is bound to is dropped by
   * the bus.
   */
  public ToaBuilder announceAll() {
    this.announceAll = true;
    return this;
  }

  /**
   * Compiles and binds every component, opens the engines and starts delivering: a running context
   * that hosts the components it was told to (all of them by default).
   *
   * @throws io.toa4j.manifest.ManifestException when a manifest does not fit
   * @throws StartupException when code does not compile or fit, an engine is missing or refuses its
   *     options, or a subset is hosted on a bus that one process consumes or that carries no calls
   */
  public Toa build() {
    long started = System.nanoTime();
    ContextManifest context = context();
    long read = System.nanoTime();
    Path home = home(context);
    Set<String> hosted = Hosting.of(context, hosting);
    Map<String, JsonNode> configurations =
        Configurations.resolve(
            context, hosted, options.environment()); // refused before anything opens
    EngineRegistry registry =
        EngineRegistry.of(ToaBuilder.class.getClassLoader(), storageProviders, busProviders);
    StorageProvider storageProvider = registry.storage(context.storage());
    BusProvider busProvider = registry.bus(context.bus());
    Hosting.requireShared(context, hosted, busProvider);
    Parts parts = bindWhileOpening(context, home, storageProvider, busProvider);
    LOG.debug(
        "Context {}: manifests read in {} ms; components bound in {} ms while the storage opened in {} ms and the bus in {} ms",
        context.name(),
        (read - started) / 1_000_000,
        parts.bindingMillis(),
        parts.storageMillis(),
        parts.busMillis());
    try {
      Hosting.requireCalls(context, hosted, parts.bus());
      return Toa.start(
          context,
          options,
          home,
          hosted,
          parts.assembly(),
          parts.storage(),
          parts.bus(),
          List.copyOf(registries),
          tracing(),
          configurations);
    } catch (RuntimeException | Error e) {
      Opening.close(parts.bus(), e);
      Opening.close(parts.storage(), e);
      Opening.close(parts.assembly(), e);
      throw e;
    }
  }

  /** What a start binds and opens, and how long each took. */
  private record Parts(
      Assembly assembly,
      Storage storage,
      Bus bus,
      long bindingMillis,
      long storageMillis,
      long busMillis) {}

  /**
   * Binds the components while the storage and the bus connect to their servers, each on a thread
   * of its own: a start waits for the slowest of the three, not for their sum. When one fails, the
   * others are given up and whatever opened is closed, {@code Error} included.
   */
  private Parts bindWhileOpening(
      ContextManifest context,
      Path home,
      StorageProvider storageProvider,
      BusProvider busProvider) {
    Opening<Storage> storage =
        Opening.start(
            "toa-open-storage",
            () -> Engines.storage(storageProvider, context.storage(), home, options, true));
    Opening<Bus> bus;
    try {
      bus =
          Opening.start(
              "toa-open-bus", () -> Engines.bus(busProvider, context.bus(), home, options, true));
    } catch (RuntimeException | Error e) {
      storage.abandon(e);
      throw e;
    }
    Assembly assembly;
    long binding = System.nanoTime();
    try {
      Assembly bound = Assembly.bind(context.components(), home.resolve("classes"));
      assembly = announceAll ? bound.announcingAll() : bound;
    } catch (RuntimeException | Error e) {
      bus.abandon(e);
      storage.abandon(e);
      throw e;
    }
    long bindingMillis = (System.nanoTime() - binding) / 1_000_000;
    Storage opened;
    try {
      opened = storage.get();
    } catch (RuntimeException | Error e) {
      bus.abandon(e);
      Opening.close(assembly, e);
      throw e;
    }
    try {
      return new Parts(assembly, opened, bus.get(), bindingMillis, storage.millis(), bus.millis());
    } catch (RuntimeException | Error e) {
      Opening.close(opened, e);
      Opening.close(assembly, e);
      throw e;
    }
  }

  /**
   * A context that hosts nothing and compiles nothing: its calls go over the bus to the processes
   * that host their components, its admin face reaches the bus's parked messages, and its system
   * stores the storage. Each engine is opened when first needed, once, without waiting for a server
   * that does not answer.
   *
   * @throws io.toa4j.manifest.ManifestException when a manifest does not fit
   * @throws StartupException when an engine is missing
   */
  public Toa connect() {
    ContextManifest context = context();
    Path home = home(context);
    EngineRegistry registry =
        EngineRegistry.of(ToaBuilder.class.getClassLoader(), storageProviders, busProviders);
    StorageProvider storageProvider = registry.storage(context.storage());
    BusProvider busProvider = registry.bus(context.bus());
    return Toa.client(
        context,
        options,
        home,
        Opened.later(
            () -> Engines.storage(storageProvider, context.storage(), home, options, false)),
        Opened.later(() -> Engines.bus(busProvider, context.bus(), home, options, false)),
        List.copyOf(registries),
        tracing());
  }

  /**
   * Whether the bus this context names is one that processes share: a fact of its provider, known
   * without opening it.
   *
   * @throws StartupException when the bus is missing
   */
  public boolean distributed() {
    ContextManifest context = context();
    return EngineRegistry.of(ToaBuilder.class.getClassLoader(), storageProviders, busProviders)
        .bus(context.bus())
        .capabilities()
        .contains(Bus.Capability.DISTRIBUTED);
  }

  private Path home(ContextManifest context) {
    return state.orElseGet(() -> context.directory().resolve(".toa")).toAbsolutePath().normalize();
  }

  /** The context: the folder's, with what was set here laid over it, or the one set here alone. */
  ContextManifest context() {
    Optional<ContextManifest> folder = directory.map(Manifests::loadContext);
    Map<String, ComponentManifest> byLabel = new LinkedHashMap<>();
    folder.ifPresent(f -> f.components().forEach(c -> byLabel.put(c.label(), c)));
    for (Source source : components) {
      ComponentManifest manifest = source.read();
      ComponentManifest twin = byLabel.putIfAbsent(manifest.label(), manifest);
      if (twin != null) {
        throw new StartupException(
            "Two components are labelled "
                + manifest.label()
                + ": "
                + twin.file()
                + " and "
                + manifest.file()
                + "; give one of them another namespace or name");
      }
    }
    List<ComponentManifest> sorted = new ArrayList<>(byLabel.values());
    sorted.sort(Comparator.comparing(ComponentManifest::label));
    String contextName =
        name.or(() -> folder.map(ContextManifest::name))
            .orElseThrow(
                () ->
                    new StartupException(
                        "A context built in code needs a name: call name(\"shop\") on the builder"));
    return new ContextManifest(
        folder.map(ContextManifest::directory).orElseGet(() -> Path.of("").toAbsolutePath()),
        folder.map(ContextManifest::file).orElse(CODE),
        contextName,
        storage.orElseGet(
            () ->
                folder
                    .map(f -> overridden(f.storage(), "TOA_STORAGE", "TOA_STORAGE_URL"))
                    .orElseGet(
                        () ->
                            new EngineDeclaration(
                                ContextManifest.DEFAULT_STORAGE,
                                Map.of(),
                                new Location(CODE, "storage")))),
        bus.orElseGet(
            () ->
                folder
                    .map(f -> overridden(f.bus(), "TOA_BUS", "TOA_BUS_URL"))
                    .orElseGet(
                        () ->
                            new EngineDeclaration(
                                ContextManifest.DEFAULT_BUS, Map.of(), new Location(CODE, "bus")))),
        inboxRetentionSeconds
            .or(() -> folder.map(ContextManifest::inboxRetentionSeconds))
            .orElse(ContextManifest.DEFAULT_INBOX_RETENTION_SECONDS),
        inboxRememberSeconds
            .or(() -> folder.map(ContextManifest::inboxRememberSeconds))
            .orElse(ContextManifest.DEFAULT_INBOX_REMEMBER_SECONDS),
        retryDelaysSeconds
            .or(() -> folder.map(ContextManifest::retryDelaysSeconds))
            .orElse(ContextManifest.DEFAULT_RETRY_DELAYS_SECONDS),
        outboxRetentionSeconds
            .or(() -> folder.map(ContextManifest::outboxRetentionSeconds))
            .orElse(ContextManifest.DEFAULT_OUTBOX_RETENTION_SECONDS),
        List.copyOf(sorted),
        folder.map(ContextManifest::configuration).orElse(Map.of()));
  }

  /**
   * A folder's engine as the environment overrides it: another engine drops the folder's options,
   * which were written for the one it names; a URL replaces the {@code url} option.
   */
  private EngineDeclaration overridden(
      EngineDeclaration declared, String nameVariable, String urlVariable) {
    Map<String, String> env = options.environment();
    EngineDeclaration engine = declared;
    String other = env.get(nameVariable);
    if (other != null && !other.isBlank() && !other.equals(declared.name())) {
      engine =
          new EngineDeclaration(
              other.strip(), Map.of(), new Location(Path.of("environment"), nameVariable));
    }
    String url = env.get(urlVariable);
    if (url != null && !url.isBlank()) engine = engine.with(Map.of("url", url.strip()));
    return engine;
  }
}
