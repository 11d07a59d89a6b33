package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The levels {@code toa}'s logging configuration gives (its {@code logback.xml}): the runtime's
 * outage lines at INFO, the drivers' repetition of an outage below the threshold and their ERRORs
 * above it.
 */
class LoggingConfigurationTest {
  @Test
  void
      theDriversWarningsOfBrokenConnections_areBelowTheThreshold_theirErrorsAndTheRuntimesOutageLinesAreNot() {
    for (String driver :
        new String[] {
          "com.zaxxer.hikari.pool.PoolBase", "com.zaxxer.hikari.pool.ProxyConnection"
        }) {
      Logger logger = LoggerFactory.getLogger(driver);
      assertThat(logger.isWarnEnabled()).as(driver + " WARN").isFalse();
      assertThat(logger.isErrorEnabled()).as(driver + " ERROR").isTrue();
    }
    assertThat(LoggerFactory.getLogger("com.zaxxer.hikari.HikariDataSource").isInfoEnabled())
        .as("the pool's start and stop")
        .isTrue();
    assertThat(
            LoggerFactory.getLogger("com.rabbitmq.client.impl.ForgivingExceptionHandler")
                .isErrorEnabled())
        .as("the RabbitMQ client's errors that are no outage")
        .isTrue();
    Logger outages = LoggerFactory.getLogger("io.toa4j.runtime.Publisher");
    assertThat(outages.isInfoEnabled()).as("an outage's WARN and its INFO \"is back\"").isTrue();
    assertThat(outages.isDebugEnabled()).as("the failures in between").isFalse();
    assertThat(LoggerFactory.getLogger("io.toa4j.bus.rabbitmq.ConnectionLog").isDebugEnabled())
        .as("a cut RabbitMQ connection")
        .isFalse();
  }
}
