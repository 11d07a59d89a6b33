package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which components a process may host, refused at boot before any engine opens: these need no
 * server, so the engines named point where nothing listens ({@link HostsTest} hosts them for real).
 */
class HostingTest {
  static final Map<String, String> NOWHERE =
      Map.of(
          "TOA_STORAGE", "postgres",
          "TOA_STORAGE_URL", "jdbc:postgresql://127.0.0.1:1/test?user=postgres",
          "TOA_BUS", "rabbitmq",
          "TOA_BUS_URL", "amqp://guest:guest@127.0.0.1:1/test");

  @TempDir Path directory;

  @Test
  void boot_unknownComponentToHost_isRefusedNamingTheKnownOnes() {
    Shop.copyTo(directory);

    assertThatThrownBy(
            () ->
                Toa.builder()
                    .directory(directory)
                    .options(Options.defaults().withEnvironment(NOWHERE))
                    .host(List.of("billing.wallet"))
                    .build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("no component 'billing.wallet'")
        .hasMessageContaining("billing.topups, billing.wallets, fulfilment.shipments");
  }

  @Test
  void boot_subsetOnTheEmbeddedBus_isRefusedSayingWhy() {
    Shop.copyTo(directory);

    assertThatThrownBy(
            () ->
                Toa.builder()
                    .directory(directory)
                    .options(Options.defaults().withEnvironment(Map.of()))
                    .host(Set.of("billing.wallets"))
                    .build())
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("hosts every component")
        .hasMessageContaining("bus: rabbitmq");
    assertThat(
            Toa.builder()
                .directory(directory)
                .options(Options.defaults().withEnvironment(Map.of()))
                .distributed())
        .as("the embedded bus is not shared, known without opening it")
        .isFalse();
  }
}
