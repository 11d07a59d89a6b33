package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applications hosting parts of one context on PostgreSQL and RabbitMQ, each standing for a process
 * (the cli's tests run them as separate JVMs): events cross between them, calls go to the host of
 * their component over the bus, keeping their identities.
 */
@Needs({Server.POSTGRES, Server.RABBITMQ, Server.RABBITMQ_CONTROL})
class HostsTest {
  static final Duration PATIENCE = Duration.ofSeconds(60);
  static final String RECEIVER = "billing.topups.paid..billing.wallets";

  @TempDir Path directory;
  @RegisterExtension final DistributedEngines engines = new DistributedEngines();

  private Options options() {
    return Options.defaults().withEnvironment(engines.environment);
  }

  private Toa host(String... components) {
    return Toa.builder().directory(directory).options(options()).host(List.of(components)).build();
  }

  private static Request topup() {
    return Request.of(
        SeedFlowTest.TOPUP,
        Map.of(
            "checkout",
            "co_1",
            "customer",
            SeedFlowTest.CUSTOMER,
            "amount",
            5000,
            "currency",
            "USD"));
  }

  private static Map<String, Object> wallet(Toa any) {
    return Shop.output(any.call("billing.wallets.observe", Request.id(SeedFlowTest.CUSTOMER)));
  }

  private static double delivered(Toa application, String queue) {
    var counter =
        application
            .metrics()
            .find("toa.messages")
            .tags("queue", queue, "outcome", "delivered")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void topupRecordedTwiceInOneHost_isCreditedOnceByTheOther_andCallsReachTheHost() {
    Shop.copyTo(directory);
    try (Toa topups = host("billing.topups");
        Toa wallets = host("billing.wallets")) {
      assertThat(topups.hosted()).containsExactly("billing.topups");

      topups.call("billing.topups.record", topup());
      topups.call("billing.topups.record", topup());

      await().atMost(PATIENCE).until(() -> delivered(wallets, RECEIVER) == 1);
      assertThat(wallet(wallets)).containsEntry("balance", 5000L).containsEntry("VERSION", 1L);
      assertThat(wallet(topups))
          .as("observed from the process that does not host wallets, over the bus")
          .containsEntry("balance", 5000L)
          .containsEntry("VERSION", 1L);
      assertThat(
              Shop.output(wallets.call("billing.topups.observe", Request.id(SeedFlowTest.TOPUP))))
          .containsEntry("checkout", "co_1");
      assertThat(delivered(topups, RECEIVER))
          .as("the receiver runs only where wallets is hosted")
          .isZero();
      assertThat(wallets.admin().settle(PATIENCE)).isEmpty();
      assertThat(wallet(wallets)).containsEntry("VERSION", 1L);
    }
  }

  @Test
  void callOverTheBus_sameIdentityTwice_isMadeOnceAtTheHost() {
    Contexts.ledger(directory, "true");
    try (Toa relay = host("test.relay");
        Toa ledger = host("test.ledger", "test.feed")) {
      Request forward = Request.input(Map.of("account", SeedFlowTest.CUSTOMER, "amount", 7));

      relay.call("test.relay.forward", forward, "call-1");
      relay.call("test.relay.forward", forward, "call-1");

      Map<String, Object> account =
          Shop.output(relay.call("test.ledger.observe", Request.id(SeedFlowTest.CUSTOMER)));
      assertThat(account).containsEntry("balance", 7L).containsEntry("VERSION", 1L);
      assertThat(ledger.metrics().find("toa.inbox.answers").counter().count())
          .as("the repeat carried the derived identity of the first call across processes")
          .isEqualTo(1);
    }
  }

  @Test
  void callOverTheBus_refusalAndFailure_reachTheCallerAsThemselves() {
    Contexts.ledger(directory, "true");
    try (Toa relay = host("test.relay");
        Toa ledger = host("test.ledger", "test.feed")) {
      Reply refused =
          relay.call(
              "test.ledger.add",
              Request.of(Query.id(SeedFlowTest.CUSTOMER), Map.of("amount", 1, "mode", "refuse")));

      assertThat(refused).isEqualTo(new Reply.Refused(Refusal.of("REFUSED")));
      assertThatThrownBy(
              () ->
                  relay.call(
                      "test.ledger.add",
                      Request.of(
                          Query.id(SeedFlowTest.CUSTOMER), Map.of("amount", "many", "mode", "ok"))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
          .hasMessageContaining("test.ledger.add");
      assertThatThrownBy(() -> relay.call("test.ledger.nothing", Request.empty()))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT));
    }
  }

  @Test
  void call_toAComponentNobodyHosts_failsAtOnceNamingIt() {
    Shop.copyTo(directory);
    try (Toa topups =
        Toa.builder()
            .directory(directory)
            .options(options().withCallTimeout(Duration.ofMinutes(5)))
            .host(List.of("billing.topups"))
            .build()) {
      long start = System.nanoTime();

      assertThatThrownBy(() -> wallet(topups))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.UNAVAILABLE))
          .hasMessageContaining("no process hosts billing.wallets")
          .hasMessageContaining("toa run billing.wallets");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }
  }

  @Test
  void connect_hostsNothing_andReachesTheHost() {
    Shop.copyTo(directory);
    try (Toa wallets = host("billing.wallets");
        Toa client = Toa.builder().directory(directory).options(options()).connect()) {
      assertThat(client.hosted()).isEmpty();
      assertThat(client.distributed()).isTrue();
      Reply credited =
          client.call(
              "billing.wallets.credit",
              Request.of(
                  Query.id(SeedFlowTest.CUSTOMER),
                  Map.of("amount", 300, "type", "goodwill", "ref", "g1")),
              "edge-1");
      Reply again =
          client.call(
              "billing.wallets.credit",
              Request.of(
                  Query.id(SeedFlowTest.CUSTOMER),
                  Map.of("amount", 300, "type", "goodwill", "ref", "g1")),
              "edge-1");

      assertThat(again).isEqualTo(credited);
      assertThat(wallet(wallets)).containsEntry("balance", 300L).containsEntry("VERSION", 1L);
      assertThatThrownBy(
              () -> client.call("billing.topups.observe", Request.id(SeedFlowTest.TOPUP), "edge-2"))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.UNAVAILABLE))
          .hasMessageContaining("no process hosts billing.topups");
      assertThatThrownBy(() -> client.call("billing.nothing.observe", Request.empty(), "edge-3"))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT))
          .hasMessageContaining("billing.topups, billing.wallets");
    }
  }

  @Test
  void answerOverTheBus_aRepeat_saysItIsAReplayFromTheHostsInbox() {
    Shop.copyTo(directory);
    try (Toa wallets = host("billing.wallets");
        Toa topups = host("billing.topups")) {
      Request credit =
          Request.of(
              Query.id(SeedFlowTest.CUSTOMER),
              Map.of("amount", 300, "type", "goodwill", "ref", "g1"));

      Answer first = topups.answer("billing.wallets.credit", credit, "edge-1");
      Answer again = topups.answer("billing.wallets.credit", credit, "edge-1");

      assertThat(first.replayed()).isFalse();
      assertThat(again.replayed()).isTrue();
      assertThat(again.reply()).isEqualTo(first.reply());
      assertThat(wallet(wallets)).containsEntry("balance", 300L).containsEntry("VERSION", 1L);
    }
  }

  @Test
  void twoHostsOfWallets_eachCreditDeliveredTwice_isCreditedOnceAndBothWork() throws Exception {
    Shop.copyTo(directory);
    int credits = 2000;
    String tasks = Messaging.tasks("billing.wallets");
    try (Toa first = host("billing.wallets");
        Toa second = host("billing.wallets");
        io.toa4j.spi.Bus sender = bus()) {
      java.util.stream.IntStream.range(0, credits)
          .parallel()
          .forEach(
              i -> {
                io.toa4j.spi.Message credit =
                    new io.toa4j.spi.Message(
                        "credit-" + i,
                        "billing.wallets.credit",
                        Binding.json(Requests.tree(creditOf(i))),
                        Map.of());
                sender.send(tasks, credit);
                sender.send(tasks, credit); // delivered twice, as after a lost acknowledgement
              });

      await()
          .atMost(Duration.ofMinutes(5))
          .until(() -> handled(first, tasks) + handled(second, tasks) == 2 * credits);
      assertThat(first.admin().settle(PATIENCE)).isEmpty();
      assertThat(second.admin().settle(PATIENCE)).isEmpty();

      try (var c = engines.database();
          var r =
              c.createStatement()
                  .executeQuery(
                      "SELECT count(*), count(*) FILTER (WHERE version = 1), sum((state->>'balance')::bigint) FROM billing_wallets.records")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getLong(1)).as("wallets").isEqualTo(credits);
        assertThat(r.getLong(2)).as("wallets written once").isEqualTo(credits);
        assertThat(r.getLong(3)).as("total credited").isEqualTo((long) credits * (credits + 1) / 2);
      }
      assertThat(absorbed(first) + absorbed(second))
          .as("second copies answered by the inbox")
          .isEqualTo(credits);
      assertThat(handled(first, tasks)).as("handled by the first host").isPositive();
      assertThat(handled(second, tasks)).as("handled by the second host").isPositive();
    }
  }

  /** Credit i: amount i + 1 into a wallet of its own. */
  private static Request creditOf(int i) {
    return Request.of(
        Query.id(String.format("%032x", i)),
        Map.of("amount", i + 1, "type", "goodwill", "ref", "r" + i));
  }

  private static double handled(Toa application, String queue) {
    return delivered(application, queue);
  }

  private static double absorbed(Toa application) {
    double sum = 0;
    for (String name : List.of("toa.inbox.answers", "toa.inbox.twins")) {
      var counter = application.metrics().find(name).counter();
      sum += counter == null ? 0 : counter.count();
    }
    return sum;
  }

  private io.toa4j.spi.Bus bus() {
    for (io.toa4j.spi.BusProvider p :
        java.util.ServiceLoader.load(io.toa4j.spi.BusProvider.class)) {
      if (p.name().equals("rabbitmq")) {
        return p.open(
            new io.toa4j.spi.BusSettings(
                directory.resolve(".toa"),
                Map.of("url", engines.environment.get("TOA_BUS_URL")),
                java.time.Clock.systemUTC()));
      }
    }
    throw new AssertionError("no rabbitmq bus on the class path");
  }
}
