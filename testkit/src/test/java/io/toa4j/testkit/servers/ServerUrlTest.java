package io.toa4j.testkit.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The URLs the tests connect with: the probe's URL, with a database or virtual host of their own.
 */
class ServerUrlTest {
  private static final Map<String, String> NONE = Map.of();

  @Test
  void noVariable_isTheLocalDefault_asTheStorageAndTheBusHaveIt() {
    assertThat(Address.url(Server.POSTGRES, NONE))
        .isEqualTo("jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    assertThat(Address.url(Server.RABBITMQ, Map.of("TOA_RABBITMQ_URL", " ")))
        .isEqualTo("amqp://guest:guest@127.0.0.1:5672");
    assertThat(Address.url(Server.POSTGRES, NONE, "toa_1", null))
        .isEqualTo("jdbc:postgresql://127.0.0.1:5432/toa_1?user=postgres");
    assertThat(Address.url(Server.RABBITMQ, NONE, "toa_1", null))
        .isEqualTo("amqp://guest:guest@127.0.0.1:5672/toa_1");
  }

  @Test
  void variable_isUsedAsWritten_butForTheDatabaseOrVirtualHost() {
    Map<String, String> environment =
        Map.of(
            "TOA_POSTGRES_URL", " jdbc:postgresql://db:6543/shop?user=me&password=s3cret ",
            "TOA_RABBITMQ_URL", "amqps://app:s3cret@broker:5673/prod?heartbeat=10");

    assertThat(
            List.of(
                Address.url(Server.POSTGRES, environment),
                Address.url(Server.POSTGRES, environment, "toa_1", null),
                Address.url(Server.RABBITMQ, environment, "toa_1", null)))
        .containsExactly(
            "jdbc:postgresql://db:6543/shop?user=me&password=s3cret",
            "jdbc:postgresql://db:6543/toa_1?user=me&password=s3cret",
            "amqps://app:s3cret@broker:5673/toa_1?heartbeat=10");
  }

  @Test
  void throughAProxy_onlyTheHostAndPortChange() {
    Map<String, String> environment =
        Map.of(
            "TOA_POSTGRES_URL", "jdbc:postgresql://one:5433,two:5434/shop?user=me",
            "TOA_RABBITMQ_URL", "amqp://app:s3cret@broker");

    assertThat(Address.url(Server.POSTGRES, environment, "toa_1", "127.0.0.1:40000"))
        .isEqualTo("jdbc:postgresql://127.0.0.1:40000/toa_1?user=me");
    assertThat(Address.url(Server.RABBITMQ, environment, "toa_1", "127.0.0.1:40001"))
        .isEqualTo("amqp://app:s3cret@127.0.0.1:40001/toa_1");
    assertThat(Address.url(Server.POSTGRES, NONE, "toa_1", "127.0.0.1:40000"))
        .isEqualTo("jdbc:postgresql://127.0.0.1:40000/toa_1?user=postgres");
  }

  @Test
  void postgres_everyFormOfTheDriversUrl_takesTheDatabase() {
    assertThat(Address.postgresUrl("jdbc:postgresql:shop", "s", "toa_1", null))
        .isEqualTo("jdbc:postgresql:toa_1");
    assertThat(Address.postgresUrl("jdbc:postgresql:shop?user=me", "s", "toa_1", "127.0.0.1:40000"))
        .isEqualTo("jdbc:postgresql://127.0.0.1:40000/toa_1?user=me");
    assertThat(Address.postgresUrl("jdbc:postgresql:///shop", "s", "toa_1", null))
        .isEqualTo("jdbc:postgresql:///toa_1");
    assertThat(Address.postgresUrl("jdbc:postgresql://db?user=me", "s", "toa_1", null))
        .isEqualTo("jdbc:postgresql://db/toa_1?user=me");
    assertThat(Address.postgresUrl("jdbc:postgresql://[::1]:5740/shop", "s", "toa_1", null))
        .isEqualTo("jdbc:postgresql://[::1]:5740/toa_1");
  }

  @Test
  void rabbitmq_withoutLoginOrHost_keepsWhatTheClientDefaults() {
    assertThat(Address.rabbitmqUrl("amqp://broker", "s", "toa_1", null))
        .isEqualTo("amqp://broker/toa_1");
    assertThat(Address.rabbitmqUrl("amqp:///prod", "s", "toa_1", null)).isEqualTo("amqp:///toa_1");
  }

  @Test
  void local_isTheLoopbackNamesOnly() {
    assertThat(Address.of(Server.RABBITMQ, NONE).local()).isTrue();
    assertThat(Address.rabbitmq("amqp://LocalHost", "s").local()).isTrue();
    assertThat(Address.rabbitmq("amqp://[::1]:5673", "s").local()).isTrue();
    assertThat(Address.postgres("jdbc:postgresql:shop", "s").local())
        .as("the driver's localhost")
        .isTrue();
    assertThat(Address.postgres("jdbc:postgresql://db.example:5432/shop", "s").local()).isFalse();
    assertThat(Address.rabbitmq("amqp://10.0.0.7", "s").local()).isFalse();
  }

  @Test
  void whatHasNoAddress_hasNoUrl() {
    assertThatThrownBy(() -> Address.url(Server.RABBITMQ_CONTROL, NONE, "toa_1", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("There is no URL for rabbitmqctl beside RabbitMQ");
  }
}
