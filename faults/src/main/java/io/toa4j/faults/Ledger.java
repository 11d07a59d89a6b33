package io.toa4j.faults;

import io.toa4j.api.Request;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ReceiverDeclaration;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.Bus;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * The ledger at the end of a run, awaited while what is in flight drains: each wallet the clients
 * credited must hold the sum of its distinct credits at the version that counts them (a credit
 * short is lost, one too many doubled), every queue must be empty, every outbox entry published,
 * and nothing parked.
 */
final class Ledger {
  /**
   * What the ledger found. {@code parked} counts parked messages, queued messages and unpublished
   * entries; {@code lacking}, each wallet that lacks credits, with its balance and version as
   * observed and when (epoch milliseconds).
   */
  record Result(
      long lost,
      long doubled,
      long wrong,
      long parked,
      List<String> notes,
      Map<String, long[]> lacking) {
    boolean clean() {
      return lost == 0 && doubled == 0 && wrong == 0 && parked == 0;
    }
  }

  private final Caller caller;
  private final Toa client;
  private final Bus bus;

  Ledger(Caller caller, Toa client, Bus bus) {
    this.caller = caller;
    this.client = client;
    this.bus = bus;
  }

  /**
   * Checks until all is settled or {@code drain} has passed, and answers the last check; says on
   * {@code out} what each check that was not settled found, so that a shortfall that settles later
   * (a read that answered older state for a while) shows in the report.
   */
  Result check(Load load, Duration drain, PrintStream out) throws InterruptedException {
    Map<String, long[]> expected = load.expected();
    long began = System.nanoTime();
    long deadline = began + drain.toNanos();
    Result result;
    int checks = 0;
    do {
      result = once(expected, load);
      checks++;
      if (result.clean()) return result;
      out.printf(
          "  check %d at %.0f s: lost %d, doubled %d, wrong %d, parked %d%s%n",
          checks,
          (System.nanoTime() - began) / 1e9,
          result.lost(),
          result.doubled(),
          result.wrong(),
          result.parked(),
          result.lacking().isEmpty()
              ? ""
              : "; short: "
                  + String.join(", ", result.lacking().keySet().stream().limit(5).toList()));
      Thread.sleep(1000);
    } while (System.nanoTime() < deadline);
    return settled(result, expected, out);
  }

  /**
   * Longer than a delivery's retries take altogether (1 + 10 + 30 + 90 s): a credit retried after
   * the last fault may land that long after the load.
   */
  private static final Duration GRACE = Duration.ofSeconds(180);

  /**
   * The last check, with the wallets it found short read again every second for at most {@link
   * #GRACE}: a pass over thousands of wallets outlasts the drain, and a credit that lands after its
   * wallet was read is late, not lost. Each wallet that became whole is said, with when.
   */
  private Result settled(Result last, Map<String, long[]> expected, PrintStream out)
      throws InterruptedException {
    Map<String, long[]> lacking = new TreeMap<>(last.lacking());
    long lost = last.lost();
    long doubled = last.doubled();
    List<String> notes = new ArrayList<>(last.notes());
    long until = System.nanoTime() + GRACE.toNanos();
    while (!lacking.isEmpty() && System.nanoTime() < until) {
      Thread.sleep(1000);
      for (String wallet : List.copyOf(lacking.keySet())) {
        long[] held = observe(wallet);
        long[] want = expected.get(wallet);
        if (held[1] < want[1]) continue;
        long[] early = lacking.remove(wallet);
        lost -= want[1] - early[1];
        notes.removeIf(n -> n.startsWith("wallet " + wallet + ": "));
        String became =
            "wallet "
                + wallet
                + " was short when read at "
                + Instant.ofEpochMilli(early[2])
                + " (version "
                + early[1]
                + " of "
                + want[1]
                + ") and whole at "
                + Instant.ofEpochMilli(held[2])
                + " (version "
                + held[1]
                + "): its credit landed late";
        notes.add(became);
        out.println("  " + became);
        if (held[1] > want[1]
            || held[0] != want[0]) { // whole, and more: counted as the checks count it
          notes.add(
              "wallet "
                  + wallet
                  + ": balance "
                  + held[0]
                  + " at version "
                  + held[1]
                  + ", expected "
                  + want[0]
                  + " at "
                  + want[1]);
          doubled += Math.max(1, held[1] - want[1]);
        }
      }
    }
    return new Result(lost, doubled, last.wrong(), last.parked(), notes, lacking);
  }

  /**
   * One check. The wallets are read only once nothing waits to be published or consumed: a wallet
   * read while its last credit is still on its way is not short, only early. A wallet found short
   * is read once more at the end of the pass, and counted short only if it still is (the pass over
   * thousands of wallets is long, and a credit may land during it: that is said in a note).
   */
  private Result once(Map<String, long[]> expected, Load load) {
    List<String> notes = new ArrayList<>();
    long lost = load.unanswered();
    long doubled = 0;
    Map<String, long[]> lacking = new TreeMap<>();
    if (lost > 0) notes.add(lost + " calls unanswered at the end");
    long waiting = waiting(notes);
    int parked =
        bus.parking()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        bus.describe() + " lists no parked messages: the ledger cannot count them"))
            .parked()
            .size();
    if (parked > 0) notes.add(parked + " messages parked");
    List<String> wrongs = load.wrongs();
    notes.addAll(wrongs);
    if (waiting > 0)
      return new Result(
          lost,
          doubled,
          wrongs.size(),
          parked + waiting,
          notes,
          lacking); // not drained: read later
    for (Map.Entry<String, long[]> wallet : expected.entrySet()) {
      long[] held = observe(wallet.getKey());
      long[] want = wallet.getValue();
      if (held[1] < want[1]) {
        long[] again = observe(wallet.getKey());
        if (again[1] >= want[1]) {
          notes.add(
              "wallet "
                  + wallet.getKey()
                  + " was short when read at "
                  + Instant.ofEpochMilli(held[2])
                  + " (version "
                  + held[1]
                  + " of "
                  + want[1]
                  + ") and whole when read again at "
                  + Instant.ofEpochMilli(again[2])
                  + ": a credit landed between");
        }
        held = again;
      }
      if (held[1] < want[1]) {
        lost += want[1] - held[1];
        lacking.put(wallet.getKey(), held);
      }
      if (held[1] > want[1]) doubled += held[1] - want[1];
      if (held[1] == want[1] && held[0] != want[0]) doubled++;
      if (held[0] != want[0] || held[1] != want[1]) {
        notes.add(
            "wallet "
                + wallet.getKey()
                + ": balance "
                + held[0]
                + " at version "
                + held[1]
                + ", expected "
                + want[0]
                + " at "
                + want[1]);
      }
    }
    return new Result(lost, doubled, wrongs.size(), parked + waiting(notes), notes, lacking);
  }

  /** What still waits: outbox entries unpublished and messages in the context's queues. */
  private long waiting(List<String> notes) {
    long waiting = 0;
    for (Map.Entry<String, Long> backlog : client.admin().backlogs().entrySet()) {
      if (backlog.getValue() > 0)
        notes.add(
            "outbox of " + backlog.getKey() + ": " + backlog.getValue() + " entries unpublished");
      waiting += backlog.getValue();
    }
    for (String queue : queues()) {
      long depth = depth(queue, notes);
      if (depth > 0) notes.add("queue " + queue + ": " + depth + " messages");
      waiting += depth;
    }
    return waiting;
  }

  /**
   * A wallet's balance and version, and when it was read (epoch milliseconds); 0 and 0 when it does
   * not answer as a wallet.
   */
  private long[] observe(String wallet) {
    long at = System.currentTimeMillis();
    try {
      JsonNode value =
          Caller.output(
              caller.call("billing.wallets.observe", Request.id(wallet), Toa.newIdentity()));
      return new long[] {value.path("balance").asLong(), value.path("VERSION").asLong(), at};
    } catch (Caller.Unanswered e) {
      return new long[] {0, 0, at};
    }
  }

  /** Every queue of the context: each receiver's, and each component's tasks and calls. */
  private TreeSet<String> queues() {
    TreeSet<String> queues = new TreeSet<>();
    for (ComponentManifest component : client.context().components()) {
      for (ReceiverDeclaration receiver : component.receivers())
        queues.add(receiver.label() + ".." + component.label());
      queues.add(component.label() + "..tasks");
      queues.add(component.label() + "..calls");
    }
    return queues;
  }

  private long depth(String queue, List<String> notes) {
    try {
      return bus.depth(queue);
    } catch (RuntimeException e) {
      notes.add("queue " + queue + " not counted: " + e.getMessage());
      return 0;
    }
  }

  /** The wallets' figures in words, for the report. */
  static String figures(Map<String, long[]> expected) {
    long credits = 0;
    for (long[] w : new TreeMap<>(expected).values()) credits += w[1];
    return expected.size() + " wallets, " + credits + " distinct credits";
  }
}
