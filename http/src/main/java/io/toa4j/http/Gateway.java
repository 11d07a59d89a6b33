package io.toa4j.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.toa4j.runtime.Application;
import java.net.InetSocketAddress;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves an application's exposition over HTTP, and, outside the components' routes, {@code GET
 * /.toa/health} (200 when the storage and the bus answer, 503 otherwise) and {@code GET
 * /.toa/metrics} (the application's meters in Prometheus' text format). Thread-safe; closing it
 * stops the server and leaves the application running.
 */
public final class Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  /** The largest body accepted by default: 1 MiB. */
  public static final int DEFAULT_MAX_BODY = 1 << 20;

  private final Server server;
  private final ServerConnector connector;

  private Gateway(Server server, ServerConnector connector) {
    this.server = server;
    this.connector = connector;
  }

  /**
   * Reads the routes of every component and starts serving them.
   *
   * @param address where to listen; port 0 picks a free one
   * @param maxBody the largest request body accepted, in bytes (413 above)
   * @throws io.toa4j.runtime.StartupException when a route maps a method to an operation of
   *     another kind, or names a variable the gateway cannot turn into a query
   */
  public static Gateway start(Application application, InetSocketAddress address, int maxBody) {
    Routes routes = Routes.of(application);
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(address.getHostString());
    connector.setPort(address.getPort());
    server.addConnector(connector);
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    application.publishMetricsTo(prometheus);
    server.setHandler(new Exchange(application, routes, maxBody, prometheus));
    try {
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("The HTTP gateway cannot listen on " + address + ": " + e.getMessage(), e);
    }
    LOG.info("HTTP gateway on {}:{} serves {} route(s)", address.getHostString(), connector.getLocalPort(), routes.all().size());
    return new Gateway(server, connector);
  }

  /** The port it listens on. */
  public int port() {
    return connector.getLocalPort();
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("The HTTP gateway did not stop cleanly", e);
    }
  }
}
