package io.toa4j.test;

import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import io.toa4j.runtime.ToaBuilder;
import io.toa4j.test.core.Harness;
import io.toa4j.test.core.Published;
import io.toa4j.test.core.TestClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/**
 * A context under test, fresh for every test: booted on the embedded engine in a temporary folder
 * of its own, with a {@link TestClock}, and closed and removed after the test.
 *
 * <pre>{@code
 * @RegisterExtension
 * final ToaContext toa = ToaContext.folder(Path.of("../examples/shop"));
 *
 * @Test
 * void aPaidTopUp_creditsTheWallet() {
 *   toa.call("billing.topups.record", Request.of(topup, Map.of(...)), "checkout-1");
 *   toa.settle();
 *   assertThat(toa.record("billing.wallets", customer)).has("balance", 5000).hasVersion(1);
 *   assertThat(toa.events()).announced("billing.topups.paid", 1);
 * }
 * }</pre>
 *
 * <p>The kit owns how the context is built — its engines, its state folder, its clock, its random
 * source, and that every event is announced ({@link ToaBuilder#announceAll()}) so that a test sees
 * the events no receiver of the context consumes — and how a scenario's consequences are waited for
 * ({@link #settle()}). What the test adds with {@link #with} is laid over a folder's context, under
 * those. The process's {@code TOA_*} variables are not read: a test runs on the embedded engine
 * wherever it runs.
 *
 * <p>Registered with {@code @RegisterExtension}, it starts before each test and closes after it;
 * {@link #start()} and {@link #close()} do the same by hand. With {@link #twice()}, each test runs
 * its scenario a second time with every message delivered twice, and fails when that ends
 * differently; with {@link #crash()}, again once for each point where a crash can fall, crashing
 * there. Not thread-safe: one test at a time drives it (the context it runs is thread-safe).
 *
 * <p>What it drives is the kit's core ({@code toa4j-test-core}'s {@link Harness}, which {@code toa
 * check} drives too); this class adds JUnit's callbacks and AssertJ's views.
 */
public final class ToaContext
    implements BeforeEachCallback, AfterEachCallback, InvocationInterceptor {
  /** How long {@link #settle()} waits unless told otherwise. */
  public static final Duration SETTLE = Harness.SETTLE;

  private final Harness harness;
  private boolean twice;
  private boolean crash;
  private Optional<Long> crashSeed = Optional.empty();
  private Optional<Integer> crashBudget = Optional.empty();

  /** How the running test's scenario crashes, drawn before it starts; empty outside crash mode. */
  private Optional<Harness.Crash> drawn = Optional.empty();

  /** What crash mode explored of the last test's scenario. */
  private Optional<Harness.Coverage> explored = Optional.empty();

  private final List<Setup> setups = new ArrayList<>();

  /** A {@code @BeforeEach} method of the test, run again before the scenario's second run. */
  private record Setup(Method method, Object target, List<Object> arguments) {}

  private ToaContext(Harness harness) {
    this.harness = harness;
  }

  /**
   * The context of a project's folder (its {@code context.toa.yaml} and components), its state kept
   * in a temporary folder, never in the project's {@code .toa/}.
   */
  public static ToaContext folder(Path folder) {
    return new ToaContext(Harness.folder(folder));
  }

  /**
   * A context built in code: {@code ToaContext.built(b -> b.name("stamps").component("test.stamps",
   * manifest))}, with the builder's methods for components and settings.
   */
  public static ToaContext built(Consumer<ToaBuilder> context) {
    return new ToaContext(Harness.built(context));
  }

  /**
   * More settings for the builder, applied in order before the kit's own, such as {@code b ->
   * b.retryDelays()} for a context that parks a failing message at once. The kit's options check
   * each output against its operation's schema ({@code Options.withChecks(true)}); a setting that
   * gives its own {@code options(...)} decides that for itself. The engines, the state folder, the
   * clock and the announcing of every event stay the kit's.
   */
  public ToaContext with(Consumer<ToaBuilder> more) {
    harness.with(more);
    return this;
  }

  /** How long {@link #settle()} waits before failing; 30 s unless told. */
  public ToaContext settleTimeout(Duration timeout) {
    harness.settleTimeout(timeout);
    return this;
  }

  /**
   * The seed of the random sources that mint ids and identities, so that two runs mint the same
   * ones.
   */
  public ToaContext seed(long seed) {
    harness.seed(seed);
    return this;
  }

  /**
   * Twice mode: each test runs its scenario twice on a fresh context, once as it is, then with
   * every message delivered twice — each event at each receiver, each task, each call of the
   * scenario — the second delivery after the first was handled and committed, as a crash between
   * the commit and the acknowledgement produces. Both runs settle, and a difference between what
   * they left in the records (properties and {@code VERSION}), the events announced or the messages
   * parked fails the test, naming the operation, the record, the property and both values.
   *
   * <p>Both runs start from the same settings and seed, so the ids they mint are the same. The
   * second run runs the test's {@code @BeforeEach} methods and the test method again, on the same
   * test instance; the test's own assertions hold in both runs, and its calls answer what their
   * first delivery answered.
   */
  public ToaContext twice() {
    this.twice = true;
    return this;
  }

  /**
   * Crash mode: each test runs its scenario once, noting every point where a crash can fall, and
   * then again on a fresh context once per point, crashing at that point alone — a delivery or a
   * call handled and committed, handed over again as a crash between the commit and the
   * acknowledgement produces; an outbox entry published, and published again as a crash between the
   * publish and its marking published produces — and fails, as twice mode does, when a run ends
   * differently from the one that delivered each message once, naming the point.
   *
   * <p>It explores every point the scenario meets, up to a budget ({@link #budget(int)}, 32 unless
   * told); past it, a seed chooses which, fresh for each test unless the system property {@code
   * toa.crash.seed} gives one ({@code mvn test -Dtoa.crash.seed=…}) or {@link #crash(long)} fixes
   * it. A passing test reports what was explored as a JUnit report entry, {@code toa.crash}. With
   * {@link #twice()} too, the twice run comes before the crashing ones.
   */
  public ToaContext crash() {
    this.crash = true;
    return this;
  }

  /**
   * Crash mode with the seed that chooses the points explored fixed, to repeat exactly the choice a
   * run printed when the points were more than the budget.
   */
  public ToaContext crash(long seed) {
    this.crashSeed = Optional.of(seed);
    return crash();
  }

  /**
   * How many points of a scenario crash mode explores at most, a run each: 32 unless told here or
   * by the system property {@code toa.crash.budget}.
   *
   * @throws IllegalArgumentException when {@code points} is below 1
   */
  public ToaContext budget(int points) {
    this.crashBudget = Optional.of(Harness.crashBudget(Optional.of(points)));
    return this;
  }

  /**
   * Whether the running context delivers every message twice: in twice mode, the scenario's second
   * run.
   */
  public boolean deliversTwice() {
    return harness.deliversTwice();
  }

  /**
   * The point the running context crashes at, in words: in crash mode, each run after the first;
   * else empty.
   */
  public Optional<String> crashPoint() {
    return harness.crashPoint();
  }

  /**
   * The points the running context repeated a message at so far, in words: in a run of crash mode,
   * its point once met; none else.
   */
  List<String> crashPoints() {
    return harness.crashPoints();
  }

  /** What crash mode explored of the last test's scenario; empty outside crash mode. */
  public Optional<Harness.Coverage> explored() {
    return explored;
  }

  @Override
  public void beforeEach(ExtensionContext extension) {
    setups.clear();
    // a seed property that is no number fails the test before it runs
    explored = Optional.empty();
    drawn =
        crash
            ? Optional.of(
                new Harness.Crash(Harness.crashSeed(crashSeed), Harness.crashBudget(crashBudget)))
            : Optional.empty();
    start();
  }

  @Override
  public void interceptBeforeEachMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> method,
      ExtensionContext extension)
      throws Throwable {
    if (twice || crash)
      setups.add(
          new Setup(
              method.getExecutable(), method.getTarget().orElse(null), method.getArguments()));
    invocation.proceed();
  }

  @Override
  public void interceptTestMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> method,
      ExtensionContext extension)
      throws Throwable {
    invocation.proceed();
    if (!twice && !crash) return;
    explored =
        harness.repeat(
            () -> {
              for (Setup setup : setups) invoke(setup.method(), setup.target(), setup.arguments());
              invoke(
                  method.getExecutable(), method.getTarget().orElse(null), method.getArguments());
            },
            twice,
            drawn);
    explored.ifPresent(coverage -> extension.publishReportEntry("toa.crash", coverage.toString()));
  }

  /**
   * A {@code @RepeatedTest} or {@code @ParameterizedTest} invocation: in twice and crash modes each
   * invocation is a scenario of its own, run again as a {@code @Test} is.
   */
  @Override
  public void interceptTestTemplateMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> method,
      ExtensionContext extension)
      throws Throwable {
    interceptTestMethod(invocation, method, extension);
  }

  /**
   * A {@code @TestFactory} is refused in twice and crash modes: its dynamic tests run after it
   * returned, so there is no scenario to run again.
   */
  @Override
  public <T> T interceptTestFactoryMethod(
      Invocation<T> invocation,
      ReflectiveInvocationContext<Method> method,
      ExtensionContext extension)
      throws Throwable {
    if (twice || crash) {
      invocation.skip();
      throw new IllegalStateException(
          (twice ? "Twice" : "Crash")
              + " mode runs a test's scenario again, and "
              + method.getExecutable().getName()
              + " is a @TestFactory, whose dynamic tests run after it returned: write the scenario"
              + " as a @Test, a @RepeatedTest or a @ParameterizedTest");
    }
    return invocation.proceed();
  }

  private static void invoke(Method method, Object target, List<Object> arguments)
      throws Throwable {
    try {
      method.setAccessible(true);
      method.invoke(target, arguments.toArray());
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public void afterEach(ExtensionContext extension) {
    close();
  }

  /**
   * Boots a fresh context in a new temporary folder, closing the one before if it still runs.
   *
   * @throws io.toa4j.runtime.StartupException or {@link io.toa4j.manifest.ManifestException} as
   *     {@link ToaBuilder#build()} does, when the context does not fit
   */
  public void start() {
    harness.start();
  }

  /** Closes the context and removes its folder; nothing when it is not running. */
  public void close() {
    harness.close();
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
  public Replied call(String endpoint, Request request, String identity) {
    return replied(harness.call(endpoint, request, identity));
  }

  /** Calls an operation under a fresh identity, minted from the kit's seed. */
  public Replied call(String endpoint, Request request) {
    return replied(harness.call(endpoint, request));
  }

  private static Replied replied(Harness.Called called) {
    return new Replied(
        called.endpoint(), called.identity(), called.answer().reply(), called.answer().replayed());
  }

  /**
   * Waits, at most the settle timeout, until every consequence of the scenario so far is handled.
   */
  public void settle() {
    harness.settle();
  }

  /**
   * Waits, at most {@code timeout}, until every consequence of the scenario so far is handled:
   * every event announced is published and every delivery of a receiver or a task has its verdict
   * (handled, or parked). Time by the test clock does not pass meanwhile: a message that failed and
   * is retried after a delay waits for {@link #advance}, and when nothing else is pending the wait
   * ends at once. In crash mode, the outbox entries whose crash fell between their publish and
   * their marking published are put back once the rest has settled, and waited for in turn.
   *
   * @throws AssertionError naming what is still pending, and the messages waiting for the clock
   */
  public void settle(Duration timeout) {
    harness.settle(timeout);
  }

  /**
   * The record of a component with this id, as its store holds it now (never written: it does not
   * exist).
   */
  public RecordView record(String component, String id) {
    String label = harness.stateful(component);
    return new RecordView(label, id, harness.read(label, id));
  }

  /** Every record of a component, in the order they were created. */
  public List<RecordView> records(String component) {
    String label = harness.stateful(component);
    return harness.records(label).stream()
        .map(r -> new RecordView(label, r.id(), Optional.of(r)))
        .toList();
  }

  /** The events announced so far, each once, in the order they reached the bus. */
  public Announced events() {
    List<AnnouncedEvent> events = new ArrayList<>();
    for (Published p : harness.events()) events.add(AnnouncedEvent.of(p));
    return new Announced(List.copyOf(events));
  }

  /** The messages parked so far, oldest first. */
  public ParkedMessages parked() {
    return new ParkedMessages(harness.parked());
  }

  /** Moves the test clock forward: retries whose delay has then passed become due. */
  public void advance(Duration by) {
    harness.advance(by);
  }

  /** The test clock the context reads time from. */
  public TestClock clock() {
    return harness.clock();
  }

  /** The running context itself: its admin face, its metrics, its system stores. */
  public Toa toa() {
    return harness.toa();
  }

  /** The temporary folder of the context's state: compiled classes, engine files. */
  public Path state() {
    return harness.state();
  }
}
