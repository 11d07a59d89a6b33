package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toa4j.api.Failure;
import io.toa4j.api.Query;
import io.toa4j.api.Refusal;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applications hosting parts of one context on PostgreSQL and RabbitMQ, each standing for a process
 * (the cli's tests run them as separate JVMs): events cross between them, calls go to the host of
 * their component over the bus, keeping their identities.
 */
class HostsTest {
  static final Duration PATIENCE = Duration.ofSeconds(60);
  static final String RECEIVER = "billing.topups.paid..billing.wallets";

  @TempDir Path directory;
  DistributedEngines engines;

  @BeforeEach
  void createDatabaseAndVirtualHost() throws Exception {
    engines = DistributedEngines.create();
  }

  @AfterEach
  void dropThem() throws Exception {
    engines.close();
  }

  private Options options() {
    return Options.defaults().withEnvironment(engines.environment);
  }

  private Application host(String... components) {
    return Application.boot(directory, options(), List.of(components));
  }

  private static Request topup() {
    return Request.of(SeedFlowTest.TOPUP, Map.of("checkout", "co_1", "customer", SeedFlowTest.CUSTOMER, "amount", 5000, "currency", "USD"));
  }

  private static Map<String, Object> wallet(Application any) {
    return TransitionTest.output(any.call("billing.wallets.observe", Request.id(SeedFlowTest.CUSTOMER)));
  }

  private static double delivered(Application application, String queue) {
    var counter = application.metrics().find("toa.messages").tags("queue", queue, "outcome", "delivered").counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void topupRecordedTwiceInOneHost_isCreditedOnceByTheOther_andCallsReachTheHost() {
    Shop.copyTo(directory);
    try (Application topups = host("billing.topups"); Application wallets = host("billing.wallets")) {
      assertThat(topups.hosted()).containsExactly("billing.topups");

      topups.call("billing.topups.record", topup());
      topups.call("billing.topups.record", topup());

      await().atMost(PATIENCE).until(() -> delivered(wallets, RECEIVER) == 1);
      assertThat(wallet(wallets)).containsEntry("balance", 5000L).containsEntry("VERSION", 1L);
      assertThat(wallet(topups)).as("observed from the process that does not host wallets, over the bus")
          .containsEntry("balance", 5000L).containsEntry("VERSION", 1L);
      assertThat(TransitionTest.output(wallets.call("billing.topups.observe", Request.id(SeedFlowTest.TOPUP))))
          .containsEntry("checkout", "co_1");
      assertThat(delivered(topups, RECEIVER)).as("the receiver runs only where wallets is hosted").isZero();
      assertThat(wallets.settle(PATIENCE)).isEmpty();
      assertThat(wallet(wallets)).containsEntry("VERSION", 1L);
    }
  }

  @Test
  void callOverTheBus_sameIdentityTwice_isMadeOnceAtTheHost() {
    Fixtures.ledger(directory, "true");
    try (Application relay = host("test.relay"); Application ledger = host("test.ledger", "test.feed")) {
      Request forward = Request.input(Map.of("account", SeedFlowTest.CUSTOMER, "amount", 7));

      relay.call("test.relay.forward", forward, "call-1");
      relay.call("test.relay.forward", forward, "call-1");

      Map<String, Object> account = TransitionTest.output(relay.call("test.ledger.observe", Request.id(SeedFlowTest.CUSTOMER)));
      assertThat(account).containsEntry("balance", 7L).containsEntry("VERSION", 1L);
      assertThat(ledger.metrics().find("toa.inbox.answers").counter().count())
          .as("the repeat carried the derived identity of the first call across processes")
          .isEqualTo(1);
    }
  }

  @Test
  void callOverTheBus_refusalAndFailure_reachTheCallerAsThemselves() {
    Fixtures.ledger(directory, "true");
    try (Application relay = host("test.relay"); Application ledger = host("test.ledger", "test.feed")) {
      Reply refused = relay.call("test.ledger.add", Request.of(Query.id(SeedFlowTest.CUSTOMER), Map.of("amount", 1, "mode", "refuse")));

      assertThat(refused).isEqualTo(new Reply.Refused(Refusal.of("REFUSED")));
      assertThatThrownBy(() -> relay.call("test.ledger.add", Request.of(Query.id(SeedFlowTest.CUSTOMER), Map.of("amount", "many", "mode", "ok"))))
          .isInstanceOfSatisfying(Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
          .hasMessageContaining("test.ledger.add");
      assertThatThrownBy(() -> relay.call("test.ledger.nothing", Request.empty()))
          .isInstanceOfSatisfying(Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT));
    }
  }

  @Test
  void call_toAComponentNobodyHosts_failsAtOnceNamingIt() {
    Shop.copyTo(directory);
    try (Application topups = Application.boot(directory, options().withCallTimeout(Duration.ofMinutes(5)), List.of("billing.topups"))) {
      long start = System.nanoTime();

      assertThatThrownBy(() -> wallet(topups))
          .isInstanceOfSatisfying(Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.UNAVAILABLE))
          .hasMessageContaining("no process hosts billing.wallets")
          .hasMessageContaining("toa run billing.wallets");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }
  }

  @Test
  void remoteContext_hostsNothing_andReachesTheHost() {
    Shop.copyTo(directory);
    try (Application wallets = host("billing.wallets");
        RemoteContext client = RemoteContext.open(directory, options()).orElseThrow()) {
      Reply credited = client.call(
          "billing.wallets.credit",
          Request.of(Query.id(SeedFlowTest.CUSTOMER), Map.of("amount", 300, "type", "goodwill", "ref", "g1")),
          "edge-1");
      Reply again = client.call(
          "billing.wallets.credit",
          Request.of(Query.id(SeedFlowTest.CUSTOMER), Map.of("amount", 300, "type", "goodwill", "ref", "g1")),
          "edge-1");

      assertThat(again).isEqualTo(credited);
      assertThat(wallet(wallets)).containsEntry("balance", 300L).containsEntry("VERSION", 1L);
      assertThatThrownBy(() -> client.call("billing.topups.observe", Request.id(SeedFlowTest.TOPUP), "edge-2"))
          .isInstanceOfSatisfying(Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.UNAVAILABLE))
          .hasMessageContaining("no process hosts billing.topups");
      assertThatThrownBy(() -> client.call("billing.nothing.observe", Request.empty(), "edge-3"))
          .isInstanceOfSatisfying(Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.ENDPOINT))
          .hasMessageContaining("billing.topups, billing.wallets");
    }
  }

  @Test
  void boot_unknownComponentToHost_isRefusedNamingTheKnownOnes() {
    Shop.copyTo(directory);

    assertThatThrownBy(() -> host("billing.wallet"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("no component 'billing.wallet'")
        .hasMessageContaining("billing.topups, billing.wallets, fulfilment.shipments");
  }

  @Test
  void boot_subsetOnTheEmbeddedBus_isRefusedSayingWhy() {
    Shop.copyTo(directory);

    assertThatThrownBy(() -> Application.boot(directory, Options.defaults().withEnvironment(Map.of()), Set.of("billing.wallets")))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("hosts every component")
        .hasMessageContaining("bus: rabbitmq");
    assertThat(RemoteContext.open(directory, Options.defaults().withEnvironment(Map.of()))).as("no client of an embedded bus").isEmpty();
  }
}
