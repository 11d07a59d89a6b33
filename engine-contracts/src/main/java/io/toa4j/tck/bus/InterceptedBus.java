package io.toa4j.tck.bus;

import io.toa4j.spi.Bus;
import io.toa4j.spi.BusProvider;
import io.toa4j.spi.BusSettings;
import io.toa4j.spi.Message;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.ServiceLoader;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A real bus (the one its provider's name picks: embedded or rabbitmq) under an engine name of a
 * test's own, every publish and republish passing through the test's interceptor, which publishes
 * for real (the same way) when it proceeds: a test holds, splits or fails a publish at the exact
 * point it examines; and every consumer's handler wrapped by the test's, which may hold deliveries.
 */
public final class InterceptedBus implements BusProvider {
  /**
   * Around one publish of one or more events: {@code proceed} publishes them, or some of them, for
   * real.
   */
  @FunctionalInterface
  public interface Interceptor {
    /**
     * Publishes the events, or some of them, through {@code proceed}, or throws as the bus would.
     */
    void publish(List<Message> events, Consumer<List<Message>> proceed) throws Exception;
  }

  private final String name;
  private final BusProvider real;
  private final Interceptor interceptor;
  private final BiFunction<String, Bus.Handler, Bus.Handler> consuming;
  private volatile Function<String, OptionalLong> backlogs;
  private volatile boolean coreOnly;

  /**
   * The bus named {@code real} under the engine name {@code name}, its publishes through {@code
   * interceptor}.
   */
  public InterceptedBus(String name, String real, Interceptor interceptor) {
    this(name, real, interceptor, (queue, handler) -> handler);
  }

  /**
   * As {@link #InterceptedBus(String, String, Interceptor)}, each consumer's handler wrapped.
   *
   * @param name the engine name a context's {@code bus:} gives
   * @param real the name of the real bus's provider, found with {@link ServiceLoader}
   * @param interceptor around each publish and republish
   * @param consuming the handler a consumer of a queue gets, given the runtime's
   */
  public InterceptedBus(
      String name,
      String real,
      Interceptor interceptor,
      BiFunction<String, Bus.Handler, Bus.Handler> consuming) {
    this.consuming = consuming;
    this.name = name;
    this.real =
        ServiceLoader.load(BusProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(provider -> provider.name().equals(real))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + real + " bus on the class path"));
    this.interceptor = interceptor;
  }

  /**
   * Leaves the bus the roles every bus has, publishing and consuming: no {@link Bus#calls()}, no
   * {@link Bus#parking()}, as a bus that has only those would.
   */
  public InterceptedBus withoutRoles() {
    this.coreOnly = true;
    return this;
  }

  /** Answers {@link Bus#backlog(String)} as {@code backlogs} does, instead of the real bus. */
  public InterceptedBus backlogs(Function<String, OptionalLong> backlogs) {
    this.backlogs = backlogs;
    return this;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public java.util.Set<Bus.Capability> capabilities() {
    return real.capabilities();
  }

  @Override
  @SuppressWarnings("unchecked")
  public Bus open(BusSettings settings) {
    Bus bus = real.open(settings);
    return (Bus)
        Proxy.newProxyInstance(
            Bus.class.getClassLoader(),
            new Class<?>[] {Bus.class},
            (proxy, method, args) -> {
              if (method.getName().equals("publish") || method.getName().equals("republish")) {
                List<Message> events =
                    args[0] instanceof List<?> list
                        ? (List<Message>) list
                        : List.of((Message) args[0]);
                interceptor.publish(
                    events, method.getName().equals("republish") ? bus::republish : bus::publish);
                return null;
              }
              if (coreOnly
                  && (method.getName().equals("calls") || method.getName().equals("parking")))
                return Optional.empty();
              if (method.getName().equals("backlog") && backlogs != null)
                return backlogs.apply((String) args[0]);
              if (method.getName().equals("consume"))
                return bus.consume(
                    (String) args[0], consuming.apply((String) args[0], (Bus.Handler) args[1]));
              try {
                return method.invoke(bus, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
