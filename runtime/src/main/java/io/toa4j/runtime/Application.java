package io.toa4j.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.toa4j.api.Context;
import io.toa4j.api.Failure;
import io.toa4j.api.Remote;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ContextManifest;
import io.toa4j.manifest.Manifests;
import io.toa4j.spi.Storage;
import io.toa4j.spi.StorageProvider;
import io.toa4j.spi.StorageSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A booted context: its components compiled, bound and connected to their storage, ready for
 * calls.
 *
 * <p>Thread-safe: any number of calls may run at once. Closing it releases the storage; calls made
 * after that fail.
 */
public final class Application implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Application.class);
  private static final int MAX_IDENTITY = 255;

  private final ContextManifest context;
  private final Options options;
  private final Storage storage;
  private final Map<String, Component> components;
  private final Engine engine;

  private Application(ContextManifest context, Options options, Storage storage, Map<String, Component> components) {
    this.context = context;
    this.options = options;
    this.storage = storage;
    this.components = components;
    this.engine = new Engine(options);
  }

  /** Boots the context in the folder with the default options. */
  public static Application boot(Path directory) {
    return boot(directory, Options.defaults());
  }

  /**
   * Boots the context in the folder: loads its manifests, compiles its components' code, binds
   * their operations and opens their storage.
   *
   * @throws io.toa4j.manifest.ManifestException when a manifest does not fit
   * @throws StartupException when the code does not compile or fit, or the storage is missing
   */
  public static Application boot(Path directory, Options options) {
    ContextManifest context = Manifests.loadContext(directory);
    Path state = context.directory().resolve(".toa");
    Storage storage = storage(context).open(new StorageSettings(state, Map.of()));
    try {
      Map<String, Component> components = new LinkedHashMap<>();
      for (ComponentManifest manifest : context.components()) {
        manifest.exposition().ifPresent(
            e -> LOG.warn("{} declares an exposition; this release serves no HTTP routes yet", manifest.file()));
        ComponentCode code = ComponentCode.load(manifest, state.resolve("classes"));
        Map<String, io.toa4j.runtime.Operation> operations = Components.bind(manifest, code);
        components.put(
            manifest.label(),
            new Component(manifest, operations, manifest.entity().map(e -> storage.store(manifest.label()))));
      }
      LOG.info(
          "Context {} is up: {} on {}", context.name(), components.keySet(), storage.describe());
      return new Application(context, options, storage, Map.copyOf(components));
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  private static StorageProvider storage(ContextManifest context) {
    List<String> known = new ArrayList<>();
    for (StorageProvider provider : ServiceLoader.load(StorageProvider.class, Application.class.getClassLoader())) {
      if (provider.name().equals(context.storage())) return provider;
      known.add(provider.name());
    }
    throw new StartupException(
        context.file() + " at storage: there is no storage engine '" + context.storage() + "' on the class path (found: "
            + (known.isEmpty() ? "none" : String.join(", ", known)) + "); add its toa4j-storage module, or use one of those");
  }

  /** The context as declared. */
  public ContextManifest context() {
    return context;
  }

  /**
   * Calls an operation with a fresh identity, as a call from outside the system does.
   *
   * @param endpoint {@code namespace.name.operation}, or {@code name.operation} in the default namespace
   * @throws Failure when the call fails; nothing was committed
   */
  public Reply call(String endpoint, Request request) {
    return call(endpoint, request, Identities.fresh(options.random()));
  }

  /**
   * Calls an operation under a stated identity: the same identity is the same call.
   *
   * @throws Failure when the call fails; nothing was committed
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
    return reply(invoke(endpoint.substring(0, dot), endpoint.substring(dot + 1), request, identity));
  }

  private Result invoke(String label, String name, Request request, String identity) {
    Component component = component(label);
    io.toa4j.runtime.Operation operation = component.operations().get(name);
    if (operation == null) {
      throw new Failure(
          Failure.Code.ENDPOINT,
          "component " + component.label() + " has no operation '" + name + "'; it has " + String.join(", ", component.operations().keySet().stream().sorted().toList()));
    }
    Invocation call = new Invocation(request.query(), Requests.input(request), identity);
    return engine.invoke(component, operation, call, served -> new CallContext(served.identity()));
  }

  private Component component(String label) {
    String full = label.indexOf('.') < 0 ? "default." + label : label;
    Component component = components.get(full);
    if (component == null) {
      throw new Failure(
          Failure.Code.ENDPOINT,
          "context " + context.name() + " has no component '" + label + "'; it has " + String.join(", ", components.keySet().stream().sorted().toList()));
    }
    return component;
  }

  private static Reply reply(Result result) {
    if (result instanceof Result.Refused refused) return new Reply.Refused(refused.refusal());
    JsonNode value = ((Result.Output) result).value();
    return new Reply.Output(value.isMissingNode() ? Optional.empty() : Optional.ofNullable(Binding.plain(value)));
  }

  @Override
  public void close() {
    storage.close();
  }

  /** What a running operation reaches: calls it makes carry identities derived from its own. */
  private final class CallContext implements Context {
    private final String identity;
    private final AtomicInteger ordinal = new AtomicInteger();

    CallContext(String identity) {
      this.identity = identity;
    }

    @Override
    public Remote remote(String label) {
      Component target = component(label);
      return (operation, request) ->
          reply(invoke(target.label(), operation, request, Identities.derive(identity, ordinal.incrementAndGet())));
    }

    @Override
    public String identity() {
      return identity;
    }
  }
}
