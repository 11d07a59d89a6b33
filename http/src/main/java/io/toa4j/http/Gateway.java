package io.toa4j.http;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.toa4j.runtime.Toa;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves an application's exposition over HTTP, and, outside the components' routes, {@code GET
 * /.toa/health} (200 {@code up} when the storage and the bus answer, 503 {@code down} otherwise)
 * and {@code GET /.toa/metrics} (the application's meters in Prometheus' text format, for an
 * identity holding the settings' metrics role). Thread-safe; closing it stops the server and leaves
 * the application running.
 *
 * <p>Slow clients cost connections, not threads: headers and bodies are read as they arrive, with
 * deadlines ({@link GatewaySettings}), and the pool of threads (Jetty's, at most 200) is held only
 * while the application works.
 */
public final class Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  /** The largest body accepted by default: 1 MiB. */
  public static final int DEFAULT_MAX_BODY = GatewaySettings.DEFAULT_MAX_BODY;

  private final Server server;
  private final ServerConnector connector;

  private Gateway(Server server, ServerConnector connector) {
    this.server = server;
    this.connector = connector;
  }

  /**
   * A registry for the gateway's {@code /.toa/metrics}, to hand to the builder of the context
   * ({@link io.toa4j.runtime.ToaBuilder#meterRegistry}), so the meters count from the start of its
   * boot: a delivery handled while the context boots (recovery after a crash) is counted there.
   */
  public static MeterRegistry metricsRegistry() {
    return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  /** With the default settings but the body limit. */
  public static Gateway start(Toa application, InetSocketAddress address, int maxBody) {
    return start(application, address, GatewaySettings.defaults().withMaxBody(maxBody));
  }

  /**
   * Reads the routes of every component and starts serving them.
   *
   * <p>{@code /.toa/metrics} shows the first Prometheus registry the context was built with (from
   * {@link #metricsRegistry()}); a context built without one gets one now, which counts from now
   * on.
   *
   * @param address where to listen; port 0 picks a free one
   * @throws io.toa4j.runtime.StartupException when a route maps a method to an operation of another
   *     kind, or names a variable the gateway cannot turn into a query
   * @throws UncheckedIOException when it cannot listen on the address (another process holds it),
   *     naming the address and the reason
   */
  public static Gateway start(
      Toa application, InetSocketAddress address, GatewaySettings settings) {
    Routes routes = Routes.of(application);
    Server server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false); // what runs behind the port is nobody's business
    http.setIdleTimeout(settings.idleTimeout().toMillis());
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost(address.getHostString());
    connector.setPort(address.getPort());
    connector.setIdleTimeout(settings.idleTimeout().toMillis());
    connector.addBean(new HeaderDeadline(settings.headerTimeout(), server.getScheduler()));
    server.addConnector(connector);
    server.setHandler(new Exchange(application, routes, settings, prometheus(application)));
    // Jetty's own refusals (a request it cannot read, a version it does not serve) answer with
    // the gateway's problem body too
    server.setErrorHandler(new JettyErrors(http.getRequestHeaderSize()));
    String where = address.getHostString() + ":" + address.getPort();
    try {
      server.start();
    } catch (IOException e) {
      stop(server);
      // Jetty says "Failed to bind to <address>"; the cause says why, such as "Address already in
      // use"
      String reason =
          e.getCause() != null && e.getCause().getMessage() != null
              ? e.getCause().getMessage()
              : e.getMessage();
      throw new UncheckedIOException(
          "The HTTP gateway cannot listen on " + where + ": " + reason, e);
    } catch (Exception e) {
      stop(server);
      throw new IllegalStateException(
          "The HTTP gateway cannot start on " + where + ": " + e.getMessage(), e);
    }
    LOG.info(
        "HTTP gateway on {}:{} serves {} route(s)",
        address.getHostString(),
        connector.getLocalPort(),
        routes.all().size());
    return new Gateway(server, connector);
  }

  /** The context's Prometheus registry, or a new one that counts from now. */
  private static PrometheusMeterRegistry prometheus(Toa application) {
    if (application.metrics() instanceof CompositeMeterRegistry composite) {
      for (MeterRegistry registry : composite.getRegistries()) {
        if (registry instanceof PrometheusMeterRegistry prometheus) return prometheus;
      }
    }
    LOG.info(
        "The context was built without a Prometheus registry: /.toa/metrics counts from now; hand Gateway.metricsRegistry() to"
            + " its builder to count from its boot");
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    application.publishMetricsTo(prometheus);
    return prometheus;
  }

  /** The port it listens on. */
  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public void close() {
    stop(server);
  }

  private static void stop(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("The HTTP gateway did not stop cleanly", e);
    }
  }
}
