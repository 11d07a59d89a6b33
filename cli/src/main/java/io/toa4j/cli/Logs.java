package io.toa4j.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * toa's log, when the operator names no Logback file of their own ({@code
 * -Dlogback.configurationFile=...}, which Logback then reads as usual). Set in code rather than by
 * a {@code logback.xml}: reading XML costs every {@code toa} process about a quarter of a second at
 * its start, and a command line is often a process of its own.
 *
 * <p>Logs go to stderr, so stdout holds what a command answers and nothing else, one line each:
 * time, level, the logger's simple name, the message. {@code toa.log.level} sets the level of
 * everything not named below ({@code INFO}; the commands that answer on stdout set {@code WARN}),
 * {@code toa.log.deliveries} that of the runtime's log of message verdicts.
 *
 * <p>A server out of reach is an outage the runtime reports once per part it stops ({@code
 * OutageLog}: one WARN, then one INFO when it is back; docs/faults.md). The drivers' own lines
 * would repeat it: HikariCP a WARN with a stack trace for every pooled connection it finds broken
 * ({@code ProxyConnection}) and for every idle one that fails its check ({@code PoolBase}). They
 * keep their ERRORs; their WARNs come back in a file of the operator's own. RabbitMQ's client
 * reports a cut connection through the bus's handler, which logs it at DEBUG ({@code
 * io.toa4j.bus.rabbitmq.ConnectionLog}).
 *
 * <p>Found by Logback through {@link java.util.ServiceLoader}, before its own configurators.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class Logs extends ContextAwareBase implements Configurator {
  /** The system property naming an operator's own Logback file. */
  static final String OPERATORS_FILE = "logback.configurationFile";

  /** The level of every logger not named otherwise; INFO when unset. */
  static final String LEVEL = "toa.log.level";

  /** The level of the runtime's log of message verdicts; the rest's when unset. */
  static final String DELIVERIES = "toa.log.deliveries";

  static final String PATTERN = "%d{HH:mm:ss.SSS} %level %logger{0} - %msg%n";

  /** Instantiated by Logback. */
  public Logs() {}

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty(OPERATORS_FILE) != null) return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(PATTERN);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();

    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(level(LEVEL, Level.INFO));
    root.addAppender(stderr);
    context.getLogger("com.zaxxer.hikari.pool.ProxyConnection").setLevel(Level.ERROR);
    context.getLogger("com.zaxxer.hikari.pool.PoolBase").setLevel(Level.ERROR);
    if (System.getProperty(DELIVERIES) != null)
      context.getLogger("io.toa4j.runtime.Deliveries").setLevel(level(DELIVERIES, Level.INFO));
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** The level a system property names; an unknown name falls back, as Logback's own file does. */
  private static Level level(String property, Level fallback) {
    String name = System.getProperty(property);
    return name == null ? fallback : Level.toLevel(name.trim(), fallback);
  }
}
