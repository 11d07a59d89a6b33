package io.toa4j.runtime;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ContextManifest;
import io.toa4j.manifest.Manifests;
import io.toa4j.spi.Bus;
import java.nio.file.Path;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A context reached as a client of its bus: calls go to the processes hosting their components,
 * and nothing is hosted, compiled or stored here. Only a {@link Bus#distributed() distributed} bus
 * can be reached this way; a context on the embedded bus is booted instead ({@link Application}).
 *
 * <p>Thread-safe. Closing it closes the bus.
 */
public final class RemoteContext implements AutoCloseable {
  private static final int MAX_IDENTITY = 255;

  private final ContextManifest context;
  private final Bus bus;
  private final Options options;

  private RemoteContext(ContextManifest context, Bus bus, Options options) {
    this.context = context;
    this.bus = bus;
    this.options = options;
  }

  /**
   * Opens the bus of the context in the folder, when other processes can host its components.
   *
   * @return empty when the context's bus is not distributed (nothing is left open then)
   * @throws io.toa4j.manifest.ManifestException when the context does not fit
   */
  public static Optional<RemoteContext> open(Path directory, Options options) {
    ContextManifest context = Manifests.loadContext(directory);
    Bus bus = Engines.bus(context, options.environment(), options.clock());
    if (!bus.distributed()) {
      bus.close();
      return Optional.empty();
    }
    return Optional.of(new RemoteContext(context, bus, options));
  }

  /**
   * Calls an operation under a stated identity, at a process hosting its component, and waits for
   * the answer (at most the options' call timeout).
   *
   * @throws Failure the host's failure; ENDPOINT for a component the context does not have;
   *     UNAVAILABLE when no process hosts the component or none answered in time
   */
  public Reply call(String endpoint, Request request, String identity) {
    if (identity.isBlank() || identity.length() > MAX_IDENTITY) {
      throw new Failure(Failure.Code.CONTRACT, "a call identity is 1 to " + MAX_IDENTITY + " characters; got " + identity.length());
    }
    int dot = endpoint.lastIndexOf('.');
    if (dot <= 0 || dot == endpoint.length() - 1) {
      throw new Failure(
          Failure.Code.ENDPOINT, "'" + endpoint + "' is not an endpoint; write namespace.name.operation, such as billing.wallets.observe");
    }
    String label = endpoint.substring(0, dot);
    String component = label.indexOf('.') < 0 ? "default." + label : label;
    TreeSet<String> known = new TreeSet<>();
    context.components().stream().map(ComponentManifest::label).forEach(known::add);
    if (!known.contains(component)) {
      throw new Failure(
          Failure.Code.ENDPOINT, "context " + context.name() + " has no component '" + label + "'; it has " + String.join(", ", known));
    }
    return Application.reply(Calls.request(bus, component, endpoint.substring(dot + 1), request, identity, options.callTimeout()));
  }

  /** What carries the calls, for messages. */
  public String describe() {
    return bus.describe();
  }

  @Override
  public void close() {
    bus.close();
  }
}
