package io.toa4j.runtime;

import io.toa4j.api.Context;
import io.toa4j.api.Failure;
import io.toa4j.api.Remote;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.manifest.Concurrency;
import io.toa4j.manifest.OperationType;
import io.toa4j.spi.Bus;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * Routes calls: runs a call here when this process hosts its component, else sends it to a process
 * that does, and gives a running operation the {@link Context} through which its own calls and
 * tasks go, under identities derived from the call it serves.
 *
 * <p>Thread-safe: any number of calls may be routed at once.
 */
final class Routing {
  private static final int MAX_IDENTITY = 255;

  private final String context;
  private final Map<String, Component> components;
  private final Set<String> hosted;
  private final Engine engine;
  private final Bus bus;
  private final Options options;
  private final Tracing tracing;
  private final Admission admission;
  private final Map<String, JsonNode> configurations;
  private final Continuity continuity;
  private final java.util.function.Consumer<java.util.List<Task>> send;

  /** The in-memory state of each component that declares state: ~, for this process's life. */
  private final Map<String, java.util.concurrent.ConcurrentMap<String, Object>> states =
      new java.util.HashMap<>();

  Routing(
      String context,
      Map<String, Component> components,
      Set<String> hosted,
      Engine engine,
      Bus bus,
      Options options,
      Tracing tracing,
      Admission admission,
      Map<String, JsonNode> configurations,
      Continuity continuity,
      java.util.function.Consumer<java.util.List<Task>> send) {
    this.configurations = configurations;
    this.continuity = continuity;
    this.send = send;
    for (Component component : components.values()) {
      for (String name : component.manifest().continuity().keySet()) {
        Operation operation = component.operations().get(name);
        if (operation == null || operation.type() != OperationType.EFFECT)
          throw new StartupException(
              component.label()
                  + " declares "
                  + name
                  + " continuous, and it is "
                  + (operation == null ? "no operation" : "a " + operation.type().yamlName())
                  + ": only an effect is continuous (continuity: in "
                  + component.manifest().file()
                  + ")");
      }
    }
    components.values().stream()
        .filter(c -> c.manifest().state())
        .forEach(c -> states.put(c.label(), new java.util.concurrent.ConcurrentHashMap<>()));
    this.tracing = tracing;
    this.admission = admission;
    this.context = context;
    this.components = components;
    this.hosted = hosted;
    this.engine = engine;
    this.bus = bus;
    this.options = options;
  }

  /**
   * Calls an operation under a stated identity, telling whether its inbox answered: a call from
   * outside the context, which waits first while its component's receivers lag ({@link Admission})
   * unless it only reads.
   *
   * @throws Failure when the call fails; nothing was committed
   */
  Answer answer(String endpoint, Request request, String identity) {
    checkIdentity(identity);
    int dot = checkEndpoint(endpoint);
    String label = endpoint.substring(0, dot);
    String name = endpoint.substring(dot + 1);
    Component component = component(label);
    Operation operation = operation(component, name);
    if (operation.type() != OperationType.OBSERVATION) admission.enter(component.label());
    Result result = invoke(label, name, request, identity);
    Optional<java.time.Duration> retention =
        engine.retentionSeconds(operation).map(java.time.Duration::ofSeconds);
    return new Answer(
        reply(result), result instanceof Result.Output output && output.replayed(), retention);
  }

  /** Refuses an identity that is blank or too long. */
  static void checkIdentity(String identity) {
    if (identity.isBlank() || identity.length() > MAX_IDENTITY) {
      throw new Failure(
          Failure.Code.CONTRACT,
          "a call identity is 1 to " + MAX_IDENTITY + " characters; got " + identity.length());
    }
  }

  /** The index of the dot before the operation's name; refuses what is not an endpoint. */
  static int checkEndpoint(String endpoint) {
    int dot = endpoint.lastIndexOf('.');
    if (dot <= 0 || dot == endpoint.length() - 1) {
      throw new Failure(
          Failure.Code.ENDPOINT,
          "'"
              + endpoint
              + "' is not an endpoint; write namespace.name.operation, such as billing.wallets.observe");
    }
    return dot;
  }

  /**
   * Runs a call somebody waits for here when this process hosts its component, else at a process
   * that does; a continuous effect is refused, since it runs only where nobody waits.
   */
  Result invoke(String label, String name, Request request, String identity) {
    return invoke(label, name, request, identity, true);
  }

  /**
   * Runs a call here when this process hosts its component, else at a process that does.
   *
   * @param waited whether somebody waits for its answer (a caller, a route, another operation), as
   *     opposed to a task or a receiver's delivery: a continuous effect is refused when somebody
   *     waits, and otherwise runs with a context that journals its steps ({@link Continuity})
   */
  Result invoke(String label, String name, Request request, String identity, boolean waited) {
    Component component = component(label);
    Operation operation = operation(component, name);
    Long window = component.manifest().continuity().get(name);
    if (window != null && waited)
      throw new Failure(
          Failure.Code.CONTRACT,
          component.label()
              + "."
              + name
              + " is continuous: it runs only where nobody waits, as a task"
              + " (context.remote(\""
              + component.label()
              + "\").task(\""
              + name
              + "\", ...)) or for a receiver, and goes on from the step that failed; a call that"
              + " waits for it is refused");
    if (!hosted.contains(component.label())) {
      return Calls.request(
          bus, tracing, component.label(), name, request, identity, options.callTimeout());
    }
    if (window != null)
      return engine.invoke(
          component,
          operation,
          new Invocation(request.query(), Requests.input(request), identity),
          (served, outgoing) ->
              continuity.attempt(
                  new CallContext(component, operation, served.identity(), outgoing),
                  served.identity(),
                  window,
                  new Reach(component)));
    return engine.invoke(
        component,
        operation,
        new Invocation(request.query(), Requests.input(request), identity),
        (served, outgoing) -> new CallContext(component, operation, served.identity(), outgoing));
  }

  /**
   * How the steps of a continuous run of an operation of {@code serving} reach other operations.
   */
  private final class Reach implements Continuity.Reach {
    private final Component serving;

    Reach(Component serving) {
      this.serving = serving;
    }

    @Override
    public Reply call(String label, String name, Request request, String identity) {
      Component target = component(label);
      operation(target, name);
      return reply(invoke(target.label(), name, request, identity));
    }

    @Override
    public void task(String label, String name, Request request, String identity) {
      Component target = component(label);
      operation(target, name);
      admission.sends(serving.label(), target.label());
      send.accept(
          java.util.List.of(
              new Task(identity, target.label() + "." + name, Requests.tree(request))));
    }
  }

  /** The type of an operation, generic ones included. */
  OperationType typeOf(String component, String operation) {
    return operation(component, operation).type();
  }

  Operation operation(String component, String operation) {
    return operation(component(component), operation);
  }

  static Operation operation(Component component, String name) {
    Operation operation = component.operations().get(name);
    if (operation == null) {
      throw new Failure(
          Failure.Code.ENDPOINT,
          "component "
              + component.label()
              + " has no operation '"
              + name
              + "'; it has "
              + String.join(", ", component.operations().keySet().stream().sorted().toList()));
    }
    return operation;
  }

  Component component(String label) {
    String full = label.indexOf('.') < 0 ? "default." + label : label;
    Component component = components.get(full);
    if (component == null) {
      throw new Failure(
          Failure.Code.ENDPOINT,
          "context "
              + context
              + " has no component '"
              + label
              + "'; it has "
              + String.join(", ", components.keySet().stream().sorted().toList()));
    }
    return component;
  }

  /** A result as the caller's reply. */
  static Reply reply(Result result) {
    if (result instanceof Result.Refused refused) return new Reply.Refused(refused.refusal());
    JsonNode value = ((Result.Output) result).value();
    return new Reply.Output(
        value.isMissingNode() ? Optional.empty() : Optional.ofNullable(Binding.plain(value)));
  }

  /**
   * What one attempt of a running operation reaches: the calls and tasks it makes carry identities
   * derived from its own and their ordinal in the attempt, its tasks wait in {@code outgoing} for
   * the engine to let them leave, and a transition that retries may not call an operation that
   * declares once.
   */
  private final class CallContext implements Context {
    private final Component serving;
    private final Operation operation;
    private final String identity;
    private final Outgoing outgoing;
    private final AtomicInteger ordinal = new AtomicInteger();

    CallContext(Component serving, Operation operation, String identity, Outgoing outgoing) {
      this.serving = serving;
      this.operation = operation;
      this.identity = identity;
      this.outgoing = outgoing;
    }

    @Override
    public java.util.concurrent.ConcurrentMap<String, Object> state() {
      java.util.concurrent.ConcurrentMap<String, Object> state = states.get(serving.label());
      if (state == null) {
        throw new IllegalStateException(
            serving.label()
                + " declares no state, so "
                + operation.name()
                + " has none to share;"
                + " write state: ~ in its manifest.toa.yaml");
      }
      return state;
    }

    @Override
    public <T> T configuration(Class<T> type) {
      JsonNode values = configurations.get(serving.label());
      if (values == null) {
        throw new IllegalStateException(
            serving.label()
                + " declares no configuration, so "
                + operation.name()
                + " has none to read;"
                + " declare the values' schema under configuration: in its manifest.toa.yaml");
      }
      try {
        return Binding.VALUES.treeToValue(values, type);
      } catch (tools.jackson.core.JacksonException | IllegalArgumentException e) {
        throw new IllegalStateException(
            "The configuration of "
                + serving.label()
                + " cannot be read as "
                + type.getName()
                + ": "
                + InputErrors.describe(values, e)
                + "; give "
                + type.getSimpleName()
                + " the properties of the configuration's schema",
            e);
      }
    }

    @Override
    public Remote remote(String label) {
      Component target = component(label);
      return new Remote() {
        @Override
        public Reply call(String name, Request request) {
          repeatable(target, operation(target, name));
          return reply(
              invoke(
                  target.label(),
                  name,
                  request,
                  Identities.derive(identity, ordinal.incrementAndGet())));
        }

        // held until the run may send it (Outgoing); unlike a call, a task may go to a once
        // operation
        @Override
        public void task(String name, Request request) {
          operation(target, name);
          admission.sends(
              serving.label(), target.label()); // its line includes the target's task queue
          outgoing.task(
              Identities.derive(identity, ordinal.incrementAndGet()),
              target.label() + "." + name,
              Requests.tree(request));
        }
      };
    }

    /**
     * Refuses, before anything is sent, a call from a transition that retries to an operation that
     * declares once: a call leaves during its attempt, and an attempt repeated after a lost write
     * may ask for something else under the same derived identity, which the inbox would answer with
     * the first answer. A task needs no such rule: only the committed attempt's tasks leave.
     */
    private void repeatable(Component target, Operation callee) {
      boolean retried =
          operation.type() == OperationType.TRANSITION
              && operation.declaration().concurrency() == Concurrency.RETRY;
      if (retried && callee.declaration().once().isPresent()) {
        throw new Failure(
            Failure.Code.UNREPEATABLE,
            target.label()
                + "."
                + callee.name()
                + " is made once, and "
                + serving.label()
                + "."
                + operation.name()
                + " is a transition retried on a lost write, which would make the call again with other content;"
                + " call it from a receiver of this component's event, or from an effect, or declare "
                + operation.name()
                + " concurrency: none");
      }
    }

    @Override
    public String identity() {
      return identity;
    }
  }
}
