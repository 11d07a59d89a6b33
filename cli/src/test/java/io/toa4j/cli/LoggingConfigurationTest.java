package io.toa4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The levels {@code toa}'s logging configuration gives ({@link Logs}, which Logback finds as a
 * service): the runtime's outage lines at INFO, the drivers' repetition of an outage below the
 * threshold and their ERRORs above it; the two properties that set levels; an operator's own file
 * left to Logback.
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

  @Test
  void theProcessesLog_isConfiguredByLogs_toStderrInOneLineFormat() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    var appender = context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
    assertThat(appender).isInstanceOf(ConsoleAppender.class);
    assertThat(((ConsoleAppender<?>) appender).getTarget()).isEqualTo("System.err");
  }

  @Test
  void theLevelProperties_setTheRestsLevelAndTheVerdictsLog() {
    String level = System.getProperty(Logs.LEVEL);
    String deliveries = System.getProperty(Logs.DELIVERIES);
    try {
      System.setProperty(Logs.LEVEL, "WARN");
      System.setProperty(Logs.DELIVERIES, "OFF");
      LoggerContext context = configured();
      assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getLevel()).isEqualTo(Level.WARN);
      assertThat(context.getLogger("io.toa4j.runtime.Deliveries").getEffectiveLevel())
          .isEqualTo(Level.OFF);
      assertThat(context.getLogger("io.toa4j.runtime.Publisher").getEffectiveLevel())
          .isEqualTo(Level.WARN);

      System.clearProperty(Logs.DELIVERIES);
      context = configured();
      assertThat(context.getLogger("io.toa4j.runtime.Deliveries").getEffectiveLevel())
          .as("the verdicts' log follows the rest when its property is unset")
          .isEqualTo(Level.WARN);
    } finally {
      restore(Logs.LEVEL, level);
      restore(Logs.DELIVERIES, deliveries);
    }
  }

  @Test
  void anOperatorsOwnFile_isLeftToLogback_andNothingIsConfiguredHere() {
    String file = System.getProperty(Logs.OPERATORS_FILE);
    try {
      System.setProperty(Logs.OPERATORS_FILE, "/etc/toa/logback.xml");
      LoggerContext context = new LoggerContext();
      Logs logs = new Logs();
      logs.setContext(context);
      assertThat(logs.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
      assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().hasNext())
          .isFalse();
    } finally {
      restore(Logs.OPERATORS_FILE, file);
    }
  }

  private static LoggerContext configured() {
    LoggerContext context = new LoggerContext();
    Logs logs = new Logs();
    logs.setContext(context);
    assertThat(logs.configure(context)).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
    return context;
  }

  private static void restore(String property, String value) {
    if (value == null) System.clearProperty(property);
    else System.setProperty(property, value);
  }
}
