package io.toa4j.test.core;

import io.toa4j.api.Request;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.runtime.Answer;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import io.toa4j.runtime.ToaBuilder;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import io.toa4j.spi.Store;
import io.toa4j.spi.StoredRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A context driven as the test kit drives it, without JUnit or AssertJ: booted on the embedded
 * engine in a temporary folder of its own, with a {@link TestClock}, a seeded random source and
 * every event announced; its calls made under identities, its consequences waited for ({@link
 * #settle()}), what it holds read back; and a scenario run again with messages handed over again as
 * a crash would ({@link #repeat}). The test kit's {@code ToaContext} is this with JUnit's callbacks
 * and AssertJ's views; {@code toa check} ({@link Check}) drives it directly.
 *
 * <p>The process's {@code TOA_*} variables are not read: a context runs on the embedded engine
 * wherever it runs. Not thread-safe: one caller at a time drives it (the context it runs is
 * thread-safe).
 */
public final class Harness {
  /** How long {@link #settle()} waits unless told otherwise. */
  public static final Duration SETTLE = Duration.ofSeconds(30);

  /**
   * The system property that fixes the seed of crash mode for every run that does not fix its own.
   */
  public static final String CRASH_SEED = Repeats.SEED;

  /**
   * The system property that sets the budget of crash mode for every run that does not set its own.
   */
  public static final String CRASH_BUDGET = Repeats.BUDGET;

  /**
   * The folder of a context's state that keeps its compiled classes, by component and hash of their
   * sources.
   */
  private static final String CLASSES = "classes";

  /**
   * The longest wait of one look at what is pending, between checks for messages that wait for the
   * clock.
   */
  private static final Duration LOOK = Duration.ofMillis(500);

  private final Optional<Path> folder;
  private final List<Consumer<ToaBuilder>> settings = new ArrayList<>();
  private Duration settleTimeout = SETTLE;
  private long seed = 17;
  private Running running;

  /**
   * What one started context is made of.
   *
   * @param repeats which messages this run hands over again
   */
  private record Running(
      Path state,
      TestClock clock,
      Toa toa,
      KitStorage storage,
      KitBus bus,
      Causes causes,
      Random identities,
      Repeats repeats) {}

  /**
   * A call as it was answered.
   *
   * @param endpoint {@code namespace.name.operation}
   * @param identity the identity it was made under
   * @param answer its reply, and whether it was answered from the inbox
   */
  public record Called(String endpoint, String identity, Answer answer) {}

  /** A scenario run again: a test's setup and its body. */
  @FunctionalInterface
  public interface Scenario {
    void run() throws Throwable;
  }

  private Harness(Optional<Path> folder) {
    this.folder = folder;
  }

  /**
   * The context of a project's folder (its {@code context.toa.yaml} and components), its state kept
   * in a temporary folder, never in the project's {@code .toa/}.
   */
  public static Harness folder(Path folder) {
    Objects.requireNonNull(folder, "folder");
    if (!Files.isRegularFile(folder.resolve("context.toa.yaml"))) {
      throw new IllegalArgumentException(
          folder.toAbsolutePath().normalize()
              + " holds no context.toa.yaml; give the folder of a context, such as examples/shop");
    }
    return new Harness(Optional.of(folder));
  }

  /** A context built in code, with the builder's methods for components and settings. */
  public static Harness built(Consumer<ToaBuilder> context) {
    return new Harness(Optional.empty()).with(context);
  }

  /**
   * More settings for the builder, applied in order before the harness's own. The options check
   * each output against its operation's schema ({@code Options.withChecks(true)}); a setting that
   * gives its own {@code options(...)} decides that for itself. The engines, the state folder, the
   * clock and the announcing of every event stay the harness's.
   */
  public Harness with(Consumer<ToaBuilder> more) {
    settings.add(Objects.requireNonNull(more, "more"));
    return this;
  }

  /** How long {@link #settle()} waits before failing; 30 s unless told. */
  public Harness settleTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero())
      throw new IllegalArgumentException("a settle timeout is positive; got " + timeout);
    this.settleTimeout = timeout;
    return this;
  }

  /**
   * The seed of the random sources that mint ids and identities, so that two runs mint the same
   * ones.
   */
  public Harness seed(long seed) {
    this.seed = seed;
    return this;
  }

  /**
   * The seed of crash mode: the one given, else the system property {@value #CRASH_SEED}, else a
   * fresh one. It chooses the points explored when a scenario meets more than the budget.
   *
   * @throws IllegalArgumentException when the property is set but is not a number
   */
  public static long crashSeed(Optional<Long> given) {
    return Repeats.seed(given);
  }

  /**
   * The budget of crash mode: the one given, else the system property {@value #CRASH_BUDGET}, else
   * 32 — how many points of one scenario it explores at most, a run each.
   *
   * @throws IllegalArgumentException when the property is set but is not a whole number above 0
   */
  public static int crashBudget(Optional<Integer> given) {
    given.ifPresent(Crash::checked);
    return Repeats.budget(given);
  }

  /**
   * How crash mode runs a scenario again.
   *
   * @param seed chooses the points explored when the scenario meets more than {@code budget}
   * @param budget how many points it explores at most, a run each
   */
  public record Crash(long seed, int budget) {
    public Crash {
      checked(budget);
    }

    static int checked(int budget) {
      if (budget < 1)
        throw new IllegalArgumentException(
            "crash mode's budget is how many points of a scenario it explores, at least 1; got "
                + budget);
      return budget;
    }
  }

  /**
   * What crash mode explored of a scenario: the points its plain run met, and those it crashed at,
   * a run each.
   *
   * @param points every point the scenario's plain run met, sorted
   * @param explored the points crashed at, a run each, in the order run
   * @param unmet the points explored whose run did not meet them (its messages came under other
   *     ids), so that nothing was repeated there
   * @param seed the seed that chose {@code explored}, when the points were more than the budget
   */
  public record Coverage(
      List<String> points, List<String> explored, List<String> unmet, OptionalLong seed) {
    public Coverage {
      points = List.copyOf(points);
      explored = List.copyOf(explored);
      unmet = List.copyOf(unmet);
    }

    /**
     * In words: {@code crash mode explored 3 of 3 point(s)}, with the seed and the budget when it
     * chose, and the points not met.
     */
    @Override
    public String toString() {
      StringBuilder words =
          new StringBuilder("crash mode explored ")
              .append(explored.size() - unmet.size())
              .append(" of ")
              .append(points.size())
              .append(" point(s)");
      if (seed.isPresent()) words.append(", ").append(choice());
      if (!unmet.isEmpty())
        words
            .append("; not met in its run, so not crashed at:\n- ")
            .append(String.join("\n- ", unmet));
      return words.toString();
    }

    /**
     * How the points explored were chosen when they were fewer than those met, and how to redo it.
     */
    String choice() {
      long s = seed.orElseThrow();
      return "chosen by seed "
          + s
          + " within a budget of "
          + explored.size()
          + " (repeat the choice with -D"
          + Repeats.SEED
          + "="
          + s
          + " or crash("
          + s
          + "); explore them all with budget("
          + points.size()
          + "))";
    }
  }

  /**
   * Whether the running context delivers every message twice: in twice mode, the scenario's second
   * run.
   */
  public boolean deliversTwice() {
    return running().repeats().everyOne();
  }

  /**
   * The point the running context crashes at: in crash mode, each run after the first; else empty.
   */
  public Optional<String> crashPoint() {
    return running().repeats().point();
  }

  /**
   * The points the running context repeated a message at so far, in words: in a run of crash mode,
   * its point once met; none else.
   */
  public List<String> crashPoints() {
    return running().repeats().picked();
  }

  /**
   * Settles the scenario the running context ran, and runs it again, each time on a fresh context,
   * settled and compared with the first run: in twice mode once, delivering every message twice; in
   * crash mode ({@code crash} present) once for each point the first run met, up to the budget,
   * crashing at that point alone.
   *
   * @param again the scenario, run on the fresh context once it started
   * @return in crash mode, what it explored
   * @throws AssertionError naming each difference, and in crash mode the point; or what the
   *     scenario threw in a run that ended the same
   */
  public Optional<Coverage> repeat(Scenario again, boolean twice, Optional<Crash> crash)
      throws Throwable {
    settle();
    Snapshot once = snapshot();
    List<String> points = running().repeats().met();
    if (twice) rerun(Repeats.every(), once, again, "Twice mode", "");
    if (crash.isEmpty()) return Optional.empty();
    List<String> explored = Repeats.chosen(points, crash.get().budget(), crash.get().seed());
    OptionalLong seed =
        points.size() > explored.size()
            ? OptionalLong.of(crash.get().seed())
            : OptionalLong.empty();
    List<String> unmet = new ArrayList<>();
    for (int i = 0; i < explored.size(); i++) {
      String point = explored.get(i);
      String of = explored.size() + (seed.isPresent() ? " explored of " + points.size() : "");
      String choice =
          seed.isPresent()
              ? "\nThe points explored were " + new Coverage(points, explored, unmet, seed).choice()
              : "";
      rerun(
          Repeats.only(point),
          once,
          again,
          "Crash mode, point " + (i + 1) + " of " + of + ": crashing " + point,
          choice);
      if (running().repeats().picked().isEmpty()) unmet.add(point);
    }
    return Optional.of(new Coverage(points, explored, unmet, seed));
  }

  private void rerun(Repeats repeats, Snapshot once, Scenario again, String run, String after)
      throws Throwable {
    start(repeats, Optional.empty());
    Throwable trouble = null;
    try {
      again.run();
      settle();
    } catch (Throwable t) {
      trouble = t;
    }
    List<String> differences = snapshot().differences(once, this::writer);
    boolean twice = repeats.everyOne();
    if (differences.isEmpty()) {
      if (trouble == null) return;
      if (twice) throw trouble;
      throw new AssertionError(
          run + ": the scenario failed: " + trouble.getMessage() + after, trouble);
    }
    String what =
        twice
            ? "delivering every message twice ends differently from delivering it once:"
            : "ends differently from delivering each message once:";
    AssertionError failure =
        new AssertionError(
            run
                + (twice ? ": " : " — ")
                + what
                + "\n- "
                + String.join("\n- ", differences)
                + after);
    if (trouble != null) failure.addSuppressed(trouble);
    throw failure;
  }

  /**
   * What the running context holds now: every record of every component with an entity, the events,
   * the parked messages.
   */
  Snapshot snapshot() {
    Map<String, Map<String, Map<String, Object>>> records = new LinkedHashMap<>();
    for (ComponentManifest component : running().toa().context().components()) {
      if (component.entity().isEmpty()) continue;
      Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
      for (StoredRecord record : records(component.label()))
        byId.put(record.id(), Values.properties(record));
      records.put(component.label(), byId);
    }
    return new Snapshot(records, compared(events()), parked());
  }

  /**
   * The events a comparison of two runs looks at: those a component declares ({@code events:}) and
   * those a receiver of the context takes. Every write announces {@code created} or {@code updated}
   * for a test to see ({@link ToaBuilder#announceAll()}), but one that nothing declares nor
   * consumes tells no more than the record it comes from, which is compared already.
   */
  private List<Published> compared(List<Published> events) {
    Set<String> compared = new java.util.HashSet<>();
    for (ComponentManifest component : running().toa().context().components()) {
      component.events().forEach(event -> compared.add(component.label() + "." + event));
      component.receivers().forEach(receiver -> compared.add(receiver.label()));
    }
    return events.stream().filter(event -> compared.contains(event.label())).toList();
  }

  /**
   * The message whose handling last wrote a record in this run, as an operation and what it was
   * given: the last write made by a repeated delivery when there is one, else the last write.
   */
  private Optional<String> writer(String component, String id) {
    List<Causes.Written> writes =
        running().causes().written().stream()
            .filter(
                w -> w.component().equals(component) && w.id().equals(id) && w.cause().isPresent())
            .toList();
    Optional<Causes.Cause> cause =
        writes.stream()
            .map(w -> w.cause().get())
            .filter(Causes.Cause::repeat)
            .reduce((a, b) -> b)
            .or(() -> writes.stream().map(w -> w.cause().get()).reduce((a, b) -> b));
    return cause.map(this::described);
  }

  /**
   * A message handed to the runtime as the operation it ran and what it was given: {@code
   * kit.tally.bump, given kit.orders.created again}.
   */
  private String described(Causes.Cause cause) {
    String again = cause.repeat() ? " again" : "";
    if (cause.queue().isEmpty()) return cause.label() + ", called" + again + " under its identity";
    String queue = cause.queue().get();
    String receiver = queue.substring(queue.lastIndexOf("..") + 2);
    if (receiver.equals("tasks")) return cause.label() + ", run" + again + " as a task";
    String operation =
        running().toa().context().components().stream()
            .filter(c -> c.label().equals(receiver))
            .flatMap(c -> c.receivers().stream())
            .filter(r -> r.label().equals(cause.label()))
            .map(r -> receiver + "." + r.operation())
            .findFirst()
            .orElse(receiver);
    return operation + ", given " + cause.label() + again;
  }

  /**
   * Boots a fresh context in a new temporary folder, closing the one before if it still runs.
   *
   * @throws io.toa4j.runtime.StartupException or {@link io.toa4j.manifest.ManifestException} as
   *     {@link ToaBuilder#build()} does, when the context does not fit
   */
  public void start() {
    start(Repeats.none(), Optional.empty());
  }

  /**
   * Boots a context on a copy of the state another one left ({@link #closeKeeping()}): its records,
   * outboxes, inboxes, bus and compiled classes, in a new temporary folder.
   */
  public void start(Path from) {
    start(Repeats.none(), Optional.of(from));
  }

  /**
   * Boots a context handing messages over again as {@code repeats} says, fresh or on a copy of
   * {@code from}.
   */
  private void start(Repeats repeats, Optional<Path> from) {
    Path state = Folders.temporary();
    if (from.isPresent()) {
      Folders.copy(from.get(), state);
    } else if (running != null && Files.isDirectory(running.state().resolve(CLASSES))) {
      // the run before compiled the same sources: its classes, cached by their hash, spare this one
      // compiling them again
      Folders.copy(running.state().resolve(CLASSES), Folders.folder(state.resolve(CLASSES)));
    }
    close();
    TestClock clock = new TestClock(TestClock.START);
    Causes causes = new Causes();
    KitStorage storage = new KitStorage(causes, repeats);
    KitBus bus = new KitBus(clock, causes, repeats);
    ToaBuilder builder = Toa.builder();
    folder.ifPresent(builder::directory);
    builder.options(
        Options.defaults().withEnvironment(Map.of()).withRandom(new Random(seed)).withChecks(true));
    settings.forEach(s -> s.accept(builder));
    builder
        .clock(clock)
        .engine(storage)
        .engine(bus)
        .storage(KitStorage.NAME, Map.of())
        .bus(KitBus.NAME, Map.of())
        .state(state)
        .announceAll();
    try {
      running =
          new Running(
              state, clock, builder.build(), storage, bus, causes, new Random(~seed), repeats);
    } catch (RuntimeException e) {
      Folders.delete(state);
      throw e;
    }
  }

  /**
   * Closes the context and keeps its folder, to {@linkplain #start(Path) start on} copies of it;
   * the caller removes it ({@link #delete(Path)}).
   */
  public Path closeKeeping() {
    Running r = running();
    running = null;
    r.toa().close();
    return r.state();
  }

  /** Removes a folder {@link #closeKeeping()} kept. */
  public static void delete(Path state) {
    Folders.delete(state);
  }

  /** The endpoints of the tasks delivered so far in the running context, each once. */
  public Set<String> tasks() {
    return running().bus().tasks();
  }

  /** Closes the context and removes its folder; nothing when it is not running. */
  public void close() {
    Running r = running;
    running = null;
    if (r == null) return;
    try {
      r.toa().close();
    } finally {
      Folders.delete(r.state());
    }
  }

  /**
   * Calls an operation under a stated identity, as an edge does: the same identity is the same
   * call. A call that fails throws its {@link io.toa4j.api.Failure}, and committed nothing. When
   * the context {@linkplain #deliversTwice() delivers every message twice}, or crash mode picks the
   * call, a call answered is made again under the same identity, and answers what the first
   * answered.
   *
   * @param endpoint {@code namespace.name.operation}
   */
  public Called call(String endpoint, Request request, String identity) {
    Running r = running();
    Answer answer =
        r.causes()
            .under(
                new Causes.Cause(Optional.empty(), endpoint, false),
                () -> r.toa().answer(endpoint, request, identity));
    if (r.repeats().beforeAnswer(endpoint, identity)) {
      try {
        r.causes()
            .under(
                new Causes.Cause(Optional.empty(), endpoint, true),
                () -> r.toa().answer(endpoint, request, identity));
      } catch (RuntimeException e) {
        throw new AssertionError(
            (r.repeats().everyOne() ? "Twice mode: " : "Crash mode: ")
                + endpoint
                + ", called again under its identity "
                + identity
                + ", failed where the first call was answered: "
                + e.getMessage(),
            e);
      }
    }
    return new Called(endpoint, identity, answer);
  }

  /** Calls an operation under a fresh identity, minted from the harness's seed. */
  public Called call(String endpoint, Request request) {
    byte[] bytes = new byte[16];
    running().identities().nextBytes(bytes);
    return call(endpoint, request, HexFormat.of().formatHex(bytes));
  }

  /**
   * Waits, at most the settle timeout, until every consequence of the scenario so far is handled.
   */
  public void settle() {
    settle(settleTimeout);
  }

  /**
   * Waits, at most {@code timeout}, until every consequence of the scenario so far is handled:
   * every event announced is published and every delivery of a receiver or a task has its verdict
   * (handled, or parked). Time by the test clock does not pass meanwhile: a message that failed and
   * is retried after a delay waits for {@link #advance}, and when nothing else is pending the wait
   * ends at once. In crash mode, the outbox entries whose crash fell between their publish and
   * their marking published are put back once the rest has settled ({@link
   * io.toa4j.runtime.Admin#redeliver}, as after the dead process's claim has ended), and waited for
   * in turn.
   *
   * @throws AssertionError naming what is still pending, and the messages waiting for the clock
   */
  public void settle(Duration timeout) {
    Running r = running();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      Optional<String> pending =
          r.toa().admin().settle(Duration.ofNanos(Math.max(0, Math.min(left, LOOK.toNanos()))));
      if (pending.isEmpty()) {
        List<String> crashed = r.storage().crashed();
        if (crashed.isEmpty()) return;
        crashed.forEach(id -> r.toa().admin().redeliver(id));
        continue;
      }
      if (r.bus().stalled(r.toa().admin().backlog())) {
        throw new AssertionError(
            "The context cannot settle until the test clock moves; still pending: "
                + pending.get()
                + ". "
                + waiting(r));
      }
      if (deadline - System.nanoTime() <= 0) {
        throw new AssertionError(
            "The context did not settle within "
                + seconds(timeout)
                + "; still pending: "
                + pending.get()
                + waitingToo(r));
      }
    }
  }

  private static String waitingToo(Running r) {
    return r.bus().waiting().isEmpty() ? "" : ". " + waiting(r);
  }

  /** The deliveries that failed and wait for their retry, in words. */
  private static String waiting(Running r) {
    long now = r.clock().millis();
    List<String> lines = new ArrayList<>();
    for (KitBus.Waiting w : r.bus().waiting()) {
      long due = w.failedAt() + w.delay().toMillis();
      lines.add(
          w.message().label()
              + " "
              + w.message().id()
              + " on "
              + w.queue()
              + " failed at attempt "
              + w.attempt()
              + (due > now
                  ? " and is retried in "
                      + seconds(Duration.ofMillis(due - now))
                      + " by the test clock"
                  : " and is due again now"));
    }
    return "Waiting for a retry: "
        + String.join("; ", lines)
        + " (move time with advance(Duration))";
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s";
  }

  /**
   * The label of one of the context's components that keeps records: {@code namespace.name}, a bare
   * name taken as the {@code default} namespace's.
   *
   * @throws IllegalArgumentException naming the components there are, or saying it keeps none
   */
  public String stateful(String component) {
    String label = component.indexOf('.') < 0 ? "default." + component : component;
    Map<String, ComponentManifest> components = new LinkedHashMap<>();
    running().toa().context().components().forEach(c -> components.put(c.label(), c));
    ComponentManifest manifest = components.get(label);
    if (manifest == null) {
      throw new IllegalArgumentException(
          "context "
              + running().toa().context().name()
              + " has no component '"
              + component
              + "'; it has "
              + new TreeSet<>(components.keySet()));
    }
    if (manifest.entity().isEmpty())
      throw new IllegalArgumentException(
          "component " + label + " keeps no records: it declares no entity");
    return label;
  }

  /** The record of a component ({@link #stateful}) with this id, as its store holds it now. */
  public Optional<StoredRecord> read(String component, String id) {
    return store(stateful(component)).read(id);
  }

  /** Every record of a component ({@link #stateful}), in the order they were created. */
  public List<StoredRecord> records(String component) {
    Store store = store(stateful(component));
    List<StoredRecord> records = new ArrayList<>();
    for (long omit = 0; ; omit += 500) {
      List<StoredRecord> page = store.page(500, omit);
      records.addAll(page);
      if (page.size() < 500) return records;
    }
  }

  private Store store(String label) {
    return running()
        .storage()
        .store(label)
        .orElseThrow(() -> new IllegalStateException("the context's storage is not open"));
  }

  /** The events announced so far, each once, in the order they reached the bus. */
  public List<Published> events() {
    Map<String, Published> distinct = new LinkedHashMap<>();
    for (Message message : running().bus().published())
      distinct.putIfAbsent(message.id(), Published.of(message));
    return List.copyOf(distinct.values());
  }

  /** The messages parked so far, oldest first. */
  public List<Parked> parked() {
    return running().toa().admin().parked();
  }

  /** Moves the test clock forward: retries whose delay has then passed become due. */
  public void advance(Duration by) {
    running().clock().advance(by);
  }

  /** The test clock the context reads time from. */
  public TestClock clock() {
    return running().clock();
  }

  /** The running context itself: its admin face, its metrics, its system stores. */
  public Toa toa() {
    return running().toa();
  }

  /** The temporary folder of the context's state: compiled classes, engine files. */
  public Path state() {
    return running().state();
  }

  private Running running() {
    if (running == null) {
      throw new IllegalStateException(
          "The context is not started: register ToaContext with @RegisterExtension, or call start() first");
    }
    return running;
  }
}
