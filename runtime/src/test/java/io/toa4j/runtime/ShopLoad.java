package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Clients of the shop under a fault: they record top-ups (each credited through its paid event) and
 * credit wallets directly, and each repeats its call, unchanged and under the same identity, until
 * it is answered — what a client does when a call fails. The ledger of what they were answered is
 * what every wallet must hold in the end: the sum of its distinct credits.
 */
final class ShopLoad {
  private final Toa shop;
  private final int wallets;
  private final int operations;
  private final Duration bound;
  private final Map<String, AtomicLong> expected = new ConcurrentHashMap<>();
  private final AtomicInteger answered = new AtomicInteger();
  private final AtomicInteger repeated = new AtomicInteger();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final ExecutorService clients;
  private final List<Future<?>> done = new ArrayList<>();

  private ShopLoad(Toa shop, int wallets, int operations, int clients, Duration bound) {
    this.shop = shop;
    this.wallets = wallets;
    this.operations = operations;
    this.bound = bound;
    this.clients = Executors.newFixedThreadPool(clients);
  }

  /**
   * Starts {@code clients} clients sharing {@code operations} operations over {@code wallets}
   * wallets.
   */
  static ShopLoad start(Toa shop, int wallets, int operations, int clients, Duration bound) {
    ShopLoad load = new ShopLoad(shop, wallets, operations, clients, bound);
    for (int c = 0; c < clients; c++) {
      int client = c;
      load.done.add(
          load.clients.submit(
              () -> {
                for (int next = client; next < operations && !load.stopping.get(); next += clients)
                  load.operate(next);
                return null;
              }));
    }
    return load;
  }

  private void operate(int i) {
    String wallet = wallet(i % wallets);
    long amount = 1 + i % 97;
    expected.computeIfAbsent(wallet, w -> new AtomicLong()).addAndGet(amount);
    long deadline = System.nanoTime() + bound.toNanos();
    while (true) {
      try {
        call(i, wallet, amount);
        answered.incrementAndGet();
        return;
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline) throw e;
        repeated.incrementAndGet();
      }
    }
  }

  /** Even: a top-up recorded, credited through its paid event; odd: a direct credit. */
  private void call(int i, String wallet, long amount) {
    if (i % 2 == 0) {
      shop.call(
          "billing.topups.record",
          Request.of(
              String.format("%032x", 0xa000000L + i),
              Map.of(
                  "checkout", "co_" + i, "customer", wallet, "amount", amount, "currency", "USD")));
    } else {
      shop.call(
          "billing.wallets.credit",
          Request.of(wallet, Map.of("amount", amount, "type", "goodwill", "ref", "g_" + i)),
          "credit-" + i);
    }
  }

  /** Waits until this fraction of the operations has been answered. */
  void awaitAnswered(double fraction) {
    await().atMost(bound).until(() -> answered.get() >= fraction * operations);
  }

  /** Waits until this many operations have been answered. */
  void awaitAnswered(int count) {
    await().atMost(bound).until(() -> answered.get() >= count);
  }

  /** How many operations have been answered so far. */
  int answered() {
    return answered.get();
  }

  /**
   * Has every client finish the operation it is on and take no other: a load started with more
   * operations than it needs runs until the test has done what it needed it for.
   */
  void stop() {
    stopping.set(true);
  }

  /** How many calls failed and were sent again. */
  int repeated() {
    return repeated.get();
  }

  /**
   * Waits for every client to be answered and for every event to be handled, then checks that
   * nothing was parked and every wallet holds the sum of its distinct credits.
   */
  void assertEveryDistinctCreditLandedOnce() throws Exception {
    for (Future<?> f : done) f.get(bound.toSeconds(), TimeUnit.SECONDS);
    clients.shutdown();
    assertThat(shop.admin().settle(bound)).as("every paid event is handled").isEmpty();
    assertThat(shop.admin().parked()).as("nothing gave up").isEmpty();
    for (int w = 0; w < wallets; w++) {
      String wallet = wallet(w);
      assertThat(Shop.output(shop.call("billing.wallets.observe", Request.id(wallet))))
          .as("wallet %s: the sum of its distinct credits", wallet)
          .containsEntry("balance", expected.get(wallet).get());
    }
  }

  private static String wallet(int w) {
    return String.format("%032x", 0xbee0L + w);
  }
}
