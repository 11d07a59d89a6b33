package io.toa4j.testkit.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Addresses read from URLs as the PostgreSQL driver and the RabbitMQ client read them. */
class AddressTest {
  @Test
  void noVariable_isTheLocalDefault_asTheTestsUse() {
    assertThat(Address.of(Server.POSTGRES, Map.of()))
        .isEqualTo(new Address("127.0.0.1", 5432, "the default"));
    assertThat(Address.of(Server.RABBITMQ, Map.of("TOA_RABBITMQ_URL", " ")))
        .isEqualTo(new Address("127.0.0.1", 5672, "the default"));
  }

  @Test
  void variable_isRead_withoutItsUserOrPassword() {
    Address rabbitmq =
        Address.of(
            Server.RABBITMQ, Map.of("TOA_RABBITMQ_URL", "amqp://app:s3cret@broker:5673/vhost"));

    assertThat(rabbitmq).isEqualTo(new Address("broker", 5673, "from TOA_RABBITMQ_URL"));
    assertThat(rabbitmq.toString()).isEqualTo("broker:5673");
  }

  @Test
  void postgres_everyFormOfTheDriversUrl() {
    assertThat(Address.postgres("jdbc:postgresql://db/shop?user=me", "s"))
        .isEqualTo(new Address("db", 5432, "s"));
    assertThat(Address.postgres("jdbc:postgresql://db:6543", "s"))
        .isEqualTo(new Address("db", 6543, "s"));
    assertThat(Address.postgres("jdbc:postgresql:shop", "s"))
        .isEqualTo(new Address("localhost", 5432, "s"));
    assertThat(Address.postgres("jdbc:postgresql:///shop", "s"))
        .isEqualTo(new Address("localhost", 5432, "s"));
    assertThat(Address.postgres("jdbc:postgresql://[::1]:5740/shop", "s"))
        .isEqualTo(new Address("[::1]", 5740, "s"));
    assertThat(Address.postgres("jdbc:postgresql://[::1]/shop", "s"))
        .isEqualTo(new Address("[::1]", 5432, "s"));
    assertThat(Address.postgres("jdbc:postgresql://one:5433,two:5434/shop", "s"))
        .isEqualTo(new Address("one", 5433, "s"));
  }

  @Test
  void mariadb_itsDefaultItsPortAndAnotherDatabase() {
    assertThat(Address.of(Server.MARIADB, Map.of()))
        .isEqualTo(new Address("127.0.0.1", 3306, "the default"));
    Map<String, String> environment =
        Map.of("TOA_MARIADB_URL", "jdbc:mariadb://db/shop?user=me&password=pw");
    assertThat(Address.of(Server.MARIADB, environment))
        .isEqualTo(new Address("db", 3306, "from TOA_MARIADB_URL"));
    assertThat(Address.url(Server.MARIADB, environment, "t1", null))
        .isEqualTo("jdbc:mariadb://db/t1?user=me&password=pw");
    assertThat(Address.url(Server.MARIADB, Map.of(), "t2", "127.0.0.1:4000"))
        .isEqualTo("jdbc:mariadb://127.0.0.1:4000/t2?user=root");
    assertThatThrownBy(
            () -> Address.of(Server.MARIADB, Map.of("TOA_MARIADB_URL", "jdbc:mysql://db/shop")))
        .hasMessageContaining("must be a JDBC URL such as jdbc:mariadb://");
  }

  @Test
  void rabbitmq_defaultPortPerScheme() {
    assertThat(Address.rabbitmq("amqp://broker", "s")).isEqualTo(new Address("broker", 5672, "s"));
    assertThat(Address.rabbitmq("amqps://broker/vhost", "s"))
        .isEqualTo(new Address("broker", 5671, "s"));
    assertThat(Address.rabbitmq("amqp:///vhost", "s"))
        .isEqualTo(new Address("localhost", 5672, "s"));
  }

  @Test
  void badUrls_areRefusedNamingWhereTheyCameFrom() {
    assertThatThrownBy(
            () -> Address.postgres("jdbc:postgresql://db:http/shop", "from TOA_POSTGRES_URL"))
        .hasMessage(
            "The URL from TOA_POSTGRES_URL names the port 'http', which is not from 1 to 65535");
    assertThatThrownBy(() -> Address.rabbitmq("http://broker", "from TOA_RABBITMQ_URL"))
        .hasMessageContaining("The URL from TOA_RABBITMQ_URL must be an AMQP URL");
  }
}
