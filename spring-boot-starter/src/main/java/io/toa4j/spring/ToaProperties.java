package io.toa4j.spring;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code toa.*} properties: what {@link ToaAutoConfiguration} builds the context from. Bound
 * once at start-up and turned into the builder's values by {@link ToaContexts}, which refuses what
 * does not fit, naming the property. The engines ({@code toa.storage.*}, {@code toa.bus.*}) are
 * read apart, by {@link EngineProperties}, since {@code toa.storage} is a value of its own too.
 *
 * @param name {@code toa.name}: the context's name; needed unless {@code toa.directory} names it
 * @param directory {@code toa.directory}: a context folder ({@code context.toa.yaml} and its
 *     components' folders)
 * @param components {@code toa.components}: components on the class path, by label ({@code
 *     billing.wallets}): the manifest at {@code billing/wallets/manifest.toa.yaml}, the classes in
 *     the package {@code billing.wallets}
 * @param host {@code toa.host}: the components this process hosts; every one when empty
 * @param state {@code toa.state}: the folder of the context's own state; the folder's {@code .toa/}
 *     by default, else {@code .toa} in the working directory
 * @param gateway {@code toa.gateway.enabled} (false) and {@code toa.gateway.address}
 * @param idempotency {@code toa.idempotency.attach}: how long a request whose {@code
 *     Idempotency-Key} is being answered waits for that answer before it is refused with 409 (5s)
 */
@ConfigurationProperties("toa")
public record ToaProperties(
    String name,
    Path directory,
    @DefaultValue List<String> components,
    @DefaultValue List<String> host,
    Path state,
    @DefaultValue Gateway gateway,
    @DefaultValue Idempotency idempotency) {

  /**
   * @param attach the wait for a request with the same key that is being answered; zero refuses at
   *     once
   */
  public record Idempotency(@DefaultValue("5s") Duration attach) {}

  /**
   * The HTTP gateway, serving the components' {@code exposition} on an address of its own, apart
   * from the application's web server.
   *
   * @param address {@code host:port}; port 0 takes a free one
   * @param operatorRole the role that uses the operator console at {@code /.toa/console/}
   */
  public record Gateway(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("127.0.0.1:8000") String address,
      @DefaultValue("toa:operator") String operatorRole) {
    /** The address, read. */
    InetSocketAddress socketAddress() {
      int colon = address.lastIndexOf(':');
      String port = colon < 0 ? "" : address.substring(colon + 1);
      if (colon <= 0 || !port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535) {
        throw new IllegalArgumentException(
            "toa.gateway.address is '"
                + address
                + "'; write it as host:port, such as 127.0.0.1:8000 (port 0 takes a free one)");
      }
      return new InetSocketAddress(address.substring(0, colon), Integer.parseInt(port));
    }
  }
}
