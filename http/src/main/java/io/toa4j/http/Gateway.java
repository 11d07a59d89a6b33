package io.toa4j.http;

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
   * @throws UncheckedIOException when it cannot listen on the address (another process holds it),
   *     naming the address and the reason
   */
  public static Gateway start(Toa application, InetSocketAddress address, int maxBody) {
    Routes routes = Routes.of(application);
    Server server = new Server();
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false); // what runs behind the port is nobody's business
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost(address.getHostString());
    connector.setPort(address.getPort());
    server.addConnector(connector);
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    application.publishMetricsTo(prometheus);
    server.setHandler(new Exchange(application, routes, maxBody, prometheus));
    // Jetty's own refusals (a request it cannot read, a version it does not serve) answer with
    // the gateway's problem body too
    server.setErrorHandler(new JettyErrors(http.getRequestHeaderSize()));
    String where = address.getHostString() + ":" + address.getPort();
    try {
      server.start();
    } catch (IOException e) {
      stop(server);
      // Jetty says "Failed to bind to <address>"; the cause says why, such as "Address already in use"
      String reason = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : e.getMessage();
      throw new UncheckedIOException("The HTTP gateway cannot listen on " + where + ": " + reason, e);
    } catch (Exception e) {
      stop(server);
      throw new IllegalStateException("The HTTP gateway cannot start on " + where + ": " + e.getMessage(), e);
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
