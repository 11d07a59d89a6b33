package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Request;
import io.toa4j.testkit.postgres.PostgresCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL crashes under load — a cluster of the test's own, stopped at once and started again,
 * twice — while clients record top-ups (each becoming a credit through the paid event on
 * RabbitMQ) and credit wallets directly, each client repeating its call, unchanged, until it gets
 * an answer. Afterwards every wallet holds the sum of its distinct credits: none lost, none
 * doubled, whatever the crashes interrupted.
 */
class PostgresRestartTest {
  static final int WALLETS = 8;
  static final int OPERATIONS = 600;
  static final int CLIENTS = 6;
  static final Duration BOUND = Duration.ofMinutes(5);

  @TempDir Path directory;

  @Test
  void crashedTwiceMidLoad_everyDistinctCreditLandsOnce() throws Exception {
    String name = "toa_" + HexFormat.of().formatHex(bytes());
    try (PostgresCluster postgres = PostgresCluster.start()) {
      postgres.createDatabase(name);
      VirtualHosts.create(name);
      try {
        Shop.copyTo(directory);
        Options options = Options.defaults().withEnvironment(Map.of(
            "TOA_STORAGE", "postgres",
            "TOA_STORAGE_URL", postgres.url(name),
            "TOA_BUS", "rabbitmq",
            "TOA_BUS_URL", "amqp://guest:guest@127.0.0.1:5672/" + name));
        try (Application shop = Application.boot(directory, options)) {
          Map<String, AtomicLong> expected = new ConcurrentHashMap<>();
          AtomicInteger answered = new AtomicInteger();
          AtomicInteger repeated = new AtomicInteger();
          ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
          List<Future<?>> done = new ArrayList<>();
          for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            done.add(clients.submit(() -> {
              for (int next = client; next < OPERATIONS; next += CLIENTS) {
                int i = next;
                String wallet = wallet(i % WALLETS);
                long amount = 1 + i % 97;
                expected.computeIfAbsent(wallet, w -> new AtomicLong()).addAndGet(amount);
                untilAnswered(() -> operation(shop, i, wallet, amount), repeated);
                answered.incrementAndGet();
              }
              return null;
            }));
          }
          await().atMost(BOUND).until(() -> answered.get() >= OPERATIONS / 3);
          postgres.restart();
          await().atMost(BOUND).until(() -> answered.get() >= 2 * OPERATIONS / 3);
          postgres.restart();
          for (Future<?> f : done) f.get(BOUND.toSeconds(), TimeUnit.SECONDS);
          clients.shutdown();

          assertThat(shop.settle(BOUND)).as("every paid event is handled").isEmpty();
          assertThat(shop.parked()).as("nothing gave up").isEmpty();
          for (int w = 0; w < WALLETS; w++) {
            String wallet = wallet(w);
            assertThat(TransitionTest.output(shop.call("billing.wallets.observe", Request.id(wallet))))
                .as("wallet %s: the sum of its distinct credits", wallet)
                .containsEntry("balance", expected.get(wallet).get());
          }
          assertThat(repeated.get()).as("the crashes interrupted calls, which were repeated").isPositive();
        }
      } finally {
        VirtualHosts.delete(name);
      }
    }
  }

  private static byte[] bytes() {
    byte[] b = new byte[8];
    ThreadLocalRandom.current().nextBytes(b);
    return b;
  }

  /** Even: a top-up recorded (credited through its paid event); odd: a direct credit. */
  private static void operation(Application shop, int i, String wallet, long amount) {
    if (i % 2 == 0) {
      shop.call("billing.topups.record", Request.of(String.format("%032x", 0xa000000L + i),
          Map.of("checkout", "co_" + i, "customer", wallet, "amount", amount, "currency", "USD")));
    } else {
      shop.call("billing.wallets.credit", Request.of(wallet, Map.of("amount", amount, "type", "goodwill", "ref", "g_" + i)), "credit-" + i);
    }
  }

  /** What a client does when a call fails: sends the very same call again, until it is answered. */
  private static void untilAnswered(Runnable call, AtomicInteger repeated) {
    long deadline = System.nanoTime() + BOUND.toNanos();
    while (true) {
      try {
        call.run();
        return;
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline) throw e;
        repeated.incrementAndGet();
      }
    }
  }

  private static String wallet(int w) {
    return String.format("%032x", 0xbee0L + w);
  }
}
