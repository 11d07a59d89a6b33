package io.toa4j.bus.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.UnreachableException;
import io.toa4j.tck.bus.BusContract;
import io.toa4j.testkit.servers.Needs;
import io.toa4j.testkit.servers.Server;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** Finding the bus, the settings it reads, and what it says when it cannot reach the broker. */
class ProviderTest {
  private static final BusSettings NO_OPTIONS =
      new BusSettings(Path.of("."), Map.of(), Clock.systemUTC());

  @Test
  @Needs(Server.RABBITMQ)
  void serviceLoader_rabbitmq_opensABusOnTheBroker() {
    BusProvider provider =
        ServiceLoader.load(BusProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(p -> p.name().equals("rabbitmq"))
            .findFirst()
            .orElseThrow();

    try (Bus bus = provider.open(NO_OPTIONS)) {
      assertThat(bus.describe()).startsWith("rabbitmq bus at amqp://").doesNotContain(":guest@");
    }
  }

  @Test
  void tuning_noOptionNoEnvironment_isTheLocalDefault() {
    Tuning tuning = Tuning.from(Map.of(), Map.of());

    assertThat(tuning.url()).isEqualTo("amqp://guest:guest@127.0.0.1:5672");
    assertThat(tuning.source()).isEqualTo("the default");
    assertThat(tuning.prefetch()).isEqualTo(16);
    assertThat(tuning.confirmTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(tuning.heartbeat())
        .as("seconds: a quiet connection is closed by the broker within 6 s")
        .isEqualTo(2);
  }

  @Test
  void tuning_heartbeat_isReadInSecondsAndBounded() {
    assertThat(Tuning.from(Map.of(Tuning.HEARTBEAT, "5"), Map.of()).heartbeat()).isEqualTo(5);
    assertThatThrownBy(() -> Tuning.from(Map.of(Tuning.HEARTBEAT, "0"), Map.of()))
        .as("no heartbeat would leave a silent peer's deliveries held until the kernel gives up")
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The rabbitmq bus option heartbeat-seconds must be from 1 to 600, not 0");
    assertThatThrownBy(() -> Tuning.from(Map.of(Tuning.HEARTBEAT, "2s"), Map.of()))
        .hasMessage("The rabbitmq bus option heartbeat-seconds must be a whole number, not '2s'");
  }

  @Test
  void tuning_environmentOnly_isUsed_optionWins() {
    Map<String, String> env = Map.of(Tuning.ENV, "amqp://a:b@env-host:5673");

    assertThat(Tuning.from(Map.of(), env).url()).isEqualTo("amqp://a:b@env-host:5673");
    assertThat(Tuning.from(Map.of(Tuning.URL, "amqp://c:d@opt-host"), env).url())
        .isEqualTo("amqp://c:d@opt-host");
  }

  @Test
  void tuning_printed_neverShowsThePassword() {
    Tuning tuning = Tuning.from(Map.of(Tuning.URL, "amqp://app:s3cret@broker:5672/prod"), Map.of());

    assertThat(tuning.where()).isEqualTo("amqp://app@broker:5672/prod");
    assertThat(tuning.toString()).doesNotContain("s3cret");
  }

  @Test
  void tuning_unknownOptionOrBadValue_failsNamingIt() {
    assertThatThrownBy(() -> Tuning.from(Map.of("prefech", "4"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefech")
        .hasMessageContaining(Tuning.PREFETCH);
    assertThatThrownBy(() -> Tuning.from(Map.of(Tuning.PREFETCH, "0"), Map.of()))
        .hasMessageContaining("from 1 to 65535");
  }

  @Test
  void open_brokerUnreachable_failsSayingWhereAndHowToStartIt() {
    BusSettings settings =
        new BusSettings(
            Path.of("."), Map.of(Tuning.URL, "amqp://app:s3cret@127.0.0.1:1"), Clock.systemUTC());

    assertThatThrownBy(() -> new RabbitBusProvider().open(settings, Map.of()))
        .as("nothing listens: it may come up later, so a starting process may wait for it")
        .isInstanceOf(UnreachableException.class)
        .hasMessageContaining("amqp://app@127.0.0.1:1")
        .hasMessageContaining("option url")
        .hasMessageContaining("rabbitmq-server -detached")
        .hasMessageNotContaining("s3cret");
  }

  @Test
  @Needs(Server.RABBITMQ)
  void open_wrongPassword_failsWithoutCallingItUnreachable() {
    String url =
        "amqp://guest:not-the-password@" + Server.RABBITMQ.host() + ":" + Server.RABBITMQ.port();
    BusSettings settings =
        new BusSettings(Path.of("."), Map.of(Tuning.URL, url), Clock.systemUTC());

    assertThatThrownBy(() -> new RabbitBusProvider().open(settings, Map.of()))
        .as("the broker answers and refuses: waiting would not help")
        .isInstanceOf(IllegalStateException.class)
        .isNotInstanceOf(UnreachableException.class)
        .hasMessageNotContaining("not-the-password");
  }

  @Test
  @Needs(Server.RABBITMQ)
  void closedBus_anyCall_failsSayingSo() {
    Bus bus = new RabbitBusProvider().open(NO_OPTIONS);
    bus.close();

    assertThatThrownBy(() -> bus.parking().orElseThrow().parked())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> bus.send("q", BusContract.message("t1", "a.b.op")))
        .isInstanceOf(IllegalStateException.class);
    bus.close(); // twice is harmless
  }
}
