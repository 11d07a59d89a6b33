package io.toa4j.faults;

import io.toa4j.api.Query;
import io.toa4j.api.Request;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Clients of the shop until stopped. Each fact is asked for under an identity of its own: a top-up
 * reported paid ({@code billing.topups.record}, under the top-up's id, which crediting its wallet
 * through the {@code paid} event follows) or a goodwill credit ({@code billing.wallets.credit}). A
 * client repeats a call that got no answer (a failure, a timeout, no process to take it) unchanged,
 * under the same identity, until it is answered, as a real client does; and besides, on purpose, it
 * asks again:
 *
 * <ul>
 *   <li><b>the same identity</b> at once, as a client whose answer was lost;
 *   <li><b>a new identity for the same fact</b>: the provider reporting the same checkout again,
 *       the same top-up id under another call;
 *   <li><b>concurrent twins</b>: the first call sent twice at the same moment;
 *   <li><b>late reports</b>: a call answered long before (at least {@link #LATE}), asked again.
 * </ul>
 *
 * <p>Every answer to a repeat must be the first answer; one that differs counts as wrong. What the
 * clients were answered gives the ledger: each wallet must hold the sum of its distinct credits, at
 * the version that counts them. Each fact answered is written down as a line of {@code facts.tsv}
 * in the run's logs (when it was answered, the endpoint, the identity, the wallet, the amount, the
 * first answer), so that a credit the ledger finds missing can be named. Thread-safe.
 */
final class Load {
  /** How old an answer must be before it is asked again as a late report. */
  static final Duration LATE = Duration.ofSeconds(20);

  /** A client's pause before repeating, so that a restarting host is not met with a storm. */
  static final Duration PAUSE = Duration.ofMillis(200);

  /** A call answered later than this after its first sending is counted as slow. */
  static final Duration SLOW = Duration.ofSeconds(10);

  private static final int WALLETS = 48;
  private static final int KEPT = 4096;

  /** A call that was answered, kept for a late report. */
  private record Asked(String endpoint, Request request, String identity, String answer, long at) {}

  private final Caller caller;
  private final Progress progress;
  private final String run = String.format("%08x", ThreadLocalRandom.current().nextInt());
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<Thread> clients = new ArrayList<>();
  private final ExecutorService twins =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "twin");
            t.setDaemon(true);
            return t;
          });
  private final Map<String, long[]> expected = new ConcurrentHashMap<>();
  private final AtomicReferenceArray<Asked> kept = new AtomicReferenceArray<>(KEPT);
  private final AtomicLong written = new AtomicLong();
  private final ConcurrentLinkedQueue<String> wrongs = new ConcurrentLinkedQueue<>();
  private final LongAdder facts = new LongAdder();
  private final LongAdder repeated = new LongAdder();
  private final LongAdder sameIdentity = new LongAdder();
  private final LongAdder newIdentity = new LongAdder();
  private final LongAdder twinCalls = new LongAdder();
  private final LongAdder late = new LongAdder();
  private final LongAdder unanswered = new LongAdder();
  private final AtomicLong slowest = new AtomicLong();
  private final AtomicLong lag = new AtomicLong();
  private volatile long lagFrom;
  private final LongAdder probes = new LongAdder();
  private final ConcurrentLinkedQueue<ProbeEvent> probeEvents = new ConcurrentLinkedQueue<>();
  private final LongAdder slow = new LongAdder();
  private volatile long giveUpAt = Long.MAX_VALUE;
  private final BufferedWriter answered;

  Load(Caller caller, Progress progress, Path logs) throws IOException {
    this.caller = caller;
    this.progress = progress;
    this.answered = Files.newBufferedWriter(logs.resolve("facts.tsv"));
  }

  /** Writes down a fact answered, with its first answer. */
  private void answered(
      String endpoint, String identity, String wallet, long amount, String first) {
    String line =
        String.join(
            "\t",
            String.valueOf(System.currentTimeMillis()),
            endpoint,
            identity,
            wallet,
            String.valueOf(amount),
            first.replace('\t', ' ').replace('\n', ' '));
    synchronized (answered) {
      try {
        answered.write(line);
        answered.newLine();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write down a fact answered", e);
      }
    }
  }

  /** Starts the clients, and the probe of the events' lag. */
  void start(int count) {
    for (int c = 0; c < count; c++) {
      int client = c;
      Thread thread = new Thread(() -> work(client), "client-" + c);
      thread.setDaemon(true);
      clients.add(thread);
      thread.start();
    }
    Thread probe = new Thread(this::probe, "probe");
    probe.setDaemon(true);
    clients.add(probe);
    probe.start();
  }

  /**
   * Stops the clients: no new fact is asked for, and each client's current call is repeated until
   * answered, at most {@code patience}; a call still unanswered then is counted as unanswered.
   */
  void stop(Duration patience) throws InterruptedException {
    stopping.set(true);
    giveUpAt = System.nanoTime() + patience.toNanos();
    for (Thread client : clients) client.join(patience.plusSeconds(5).toMillis());
    twins.shutdownNow();
    synchronized (answered) {
      try {
        answered.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write down the facts answered", e);
      }
    }
  }

  /** Each wallet the clients credited: the sum of its distinct credits and how many there were. */
  Map<String, long[]> expected() {
    return new TreeMap<>(expected);
  }

  long facts() {
    return facts.sum();
  }

  long repeated() {
    return repeated.sum();
  }

  long unanswered() {
    return unanswered.sum();
  }

  /**
   * The longest a call took from its first sending to its answer, repeats included, in nanoseconds.
   */
  long slowest() {
    return slowest.get();
  }

  /** Calls that took longer than {@link #SLOW} to be answered, repeats included. */
  long slow() {
    return slow.sum();
  }

  /**
   * The longest an event took, from the answer to a top-up's report to its wallet credited, among
   * the probe's top-ups (one at a time, each on a wallet of its own), in nanoseconds.
   */
  long lag() {
    return lag.get();
  }

  /** When the top-up of {@link #lag()} was answered (System.nanoTime()). */
  long lagFrom() {
    return lagFrom;
  }

  long probes() {
    return probes.sum();
  }

  /**
   * One probe's event: its top-up and wallet, when its report was answered, and how long until the
   * credit.
   */
  record ProbeEvent(
      String topup, String wallet, long answeredMillis, long answeredNanos, long nanos) {}

  /** The probe's events, in the order they were answered. */
  List<ProbeEvent> probeEvents() {
    return List.copyOf(probeEvents);
  }

  /** The probe's slowest events, slowest first, at most {@code n}. */
  List<ProbeEvent> slowestProbes(int n) {
    return probeEvents.stream()
        .sorted(java.util.Comparator.comparingLong(ProbeEvent::nanos).reversed())
        .limit(n)
        .toList();
  }

  List<String> wrongs() {
    return List.copyOf(wrongs);
  }

  String askedAgain() {
    return String.format(
        "same identity %d, new identity for the same fact %d, concurrent twins %d, late reports %d",
        sameIdentity.sum(), newIdentity.sum(), twinCalls.sum(), late.sum());
  }

  private void work(int client) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (long i = 0; !stopping.get(); i++) {
      String key = String.format("%s%04x%012x", run, client, i);
      String wallet = String.format("%s%024x", run, random.nextInt(WALLETS));
      long amount = random.nextLong(1, 1000);
      boolean topup = random.nextBoolean();
      String endpoint = topup ? "billing.topups.record" : "billing.wallets.credit";
      Request request =
          topup
              ? Request.of(
                  Query.id(key + "00000000"),
                  Map.of(
                      "checkout",
                      "co_" + key,
                      "customer",
                      wallet,
                      "amount",
                      amount,
                      "currency",
                      "EUR"))
              : Request.of(
                  Query.id(wallet),
                  Map.of("amount", amount, "type", "goodwill", "ref", "g-" + key));
      String identity = (topup ? "record-" : "credit-") + key;
      int roll = random.nextInt(100);
      String first =
          roll < 10
              ? twins(endpoint, request, identity)
              : untilAnswered(endpoint, request, identity);
      if (first == null) return; // given up at the end: counted as unanswered
      answered(endpoint, identity, wallet, amount, first);
      expected.merge(
          wallet, new long[] {amount, 1}, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
      facts.increment();
      kept.set(
          (int) (written.getAndIncrement() % KEPT),
          new Asked(endpoint, request, identity, first, System.nanoTime()));
      if (roll >= 10 && roll < 30) again(endpoint, request, identity, first, sameIdentity);
      if (topup && roll >= 30 && roll < 45)
        again(endpoint, request, "report-" + key, first, newIdentity);
      if (roll >= 45 && roll < 52) lateReport(random);
    }
  }

  /**
   * One top-up at a time, each for a wallet of its own, and the wallet observed every 50 ms until
   * the {@code paid} event credited it: how long an event waits, whichever process took it.
   */
  private void probe() {
    for (long i = 0; !stopping.get(); i++) {
      String key = String.format("%s%s%012x", run, "ffff", i);
      String wallet = key + "00000000";
      String identity = "probe-" + key;
      Map<String, Object> input =
          Map.of("checkout", "co_" + key, "customer", wallet, "amount", 1L, "currency", "EUR");
      String first =
          untilAnswered(
              "billing.topups.record", Request.of(Query.id(key + "ffffffff"), input), identity);
      if (first == null) return;
      answered("billing.topups.record", identity, wallet, 1, first);
      expected.merge(wallet, new long[] {1, 1}, (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
      long recorded = System.nanoTime();
      long recordedMillis = System.currentTimeMillis();
      while (!stopping.get()) {
        String answer =
            untilAnswered(
                "billing.wallets.observe",
                Request.id(wallet),
                "observe-" + key + "-" + System.nanoTime());
        if (answer != null && Caller.output(answer).path("balance").asLong() == 1) {
          long took = System.nanoTime() - recorded;
          if (lag.accumulateAndGet(took, Math::max) == took) lagFrom = recorded;
          probeEvents.add(new ProbeEvent(key + "ffffffff", wallet, recordedMillis, recorded, took));
          probes.increment();
          break;
        }
        LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
      }
    }
  }

  /** The first call sent twice at the same moment; both answers must be the same. */
  private String twins(String endpoint, Request request, String identity) {
    twinCalls.increment();
    CompletableFuture<String> twin =
        CompletableFuture.supplyAsync(() -> untilAnswered(endpoint, request, identity), twins);
    String one = untilAnswered(endpoint, request, identity);
    String other = twin.join();
    if (one != null && other != null && !one.equals(other)) {
      wrongs.add(endpoint + " under " + identity + ", twins answered " + one + " and " + other);
    }
    return one == null ? other : one;
  }

  private void again(
      String endpoint, Request request, String identity, String first, LongAdder count) {
    count.increment();
    String answer = untilAnswered(endpoint, request, identity);
    if (answer != null && !answer.equals(first)) {
      wrongs.add(endpoint + " under " + identity + " answered " + answer + ", first " + first);
    }
  }

  /** A random answer kept, if it is old enough; else the oldest kept, if that one is. */
  private void lateReport(ThreadLocalRandom random) {
    long n = written.get();
    if (n == 0) return;
    Asked asked =
        kept.get((int) ((n > KEPT ? n - KEPT + random.nextLong(KEPT) : random.nextLong(n)) % KEPT));
    if (asked == null || System.nanoTime() - asked.at() < LATE.toNanos())
      asked = kept.get((int) (n > KEPT ? n % KEPT : 0));
    if (asked == null || System.nanoTime() - asked.at() < LATE.toNanos()) return;
    again(asked.endpoint(), asked.request(), asked.identity(), asked.answer(), late);
  }

  /** The call, repeated unchanged until answered; null when given up at the end of the run. */
  private String untilAnswered(String endpoint, Request request, String identity) {
    boolean repeat = false;
    long sent = System.nanoTime();
    while (true) {
      try {
        String answer = caller.call(endpoint, request, identity);
        progress.completed();
        long took = System.nanoTime() - sent;
        slowest.accumulateAndGet(took, Math::max);
        if (took > SLOW.toNanos()) slow.increment();
        return answer;
      } catch (Caller.Unanswered e) {
        if (System.nanoTime() - giveUpAt > 0) {
          unanswered.increment();
          return null;
        }
        if (!repeat) repeated.increment(); // a call repeated, counted once however often
        repeat = true;
        LockSupport.parkNanos(PAUSE.toNanos());
      }
    }
  }
}
