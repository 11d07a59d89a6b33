package io.toa4j.runtime;

import io.toa4j.api.Receiver;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.ReceiverDeclaration;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One receiver binding: an event label delivered, through a queue of its own, to a local operation,
 * optionally adapted by a {@link Receiver} class.
 *
 * @param queue {@code <event label>..<receiving component>}
 * @param payload the class the payload binds to for the receiver class; empty without one
 */
record Reception(
    String queue,
    String label,
    String component,
    String operation,
    Optional<Receiver<Object>> code,
    Optional<Class<?>> payload) {

  /**
   * Binds a component's receivers; fails at boot on an unknown event or a class that does not fit.
   */
  static List<Reception> bind(
      ComponentManifest manifest, ComponentCode code, Map<String, Announcements> context) {
    List<Reception> receptions = new ArrayList<>();
    List<String> classes = new ArrayList<>(code.simpleNamesIn("receivers"));
    for (ReceiverDeclaration declaration : manifest.receivers()) {
      String label = declaration.label();
      int dot = label.lastIndexOf('.');
      String sourceLabel = label.substring(0, dot);
      Announcements source = context.get(sourceLabel);
      String event = label.substring(dot + 1);
      if (source == null || source.get(event).isEmpty()) {
        throw new StartupException(
            declaration.path()
                + ": no component of this context announces "
                + label
                + (source == null
                    ? " (there is no component " + sourceLabel + ")"
                    : " ("
                        + sourceLabel
                        + " announces "
                        + String.join(", ", source.names().stream().sorted().toList())
                        + ")")
                + "; name an event that exists");
      }
      String simple = camel(label);
      classes.remove(simple);
      Optional<Class<?>> type = code.find("receivers", simple);
      Optional<Receiver<Object>> receiver = type.map(t -> instantiate(declaration, t));
      Optional<Class<?>> payload = type.map(t -> payloadType(declaration, t));
      receptions.add(
          new Reception(
              label + ".." + manifest.label(),
              label,
              manifest.label(),
              declaration.operation(),
              receiver,
              payload));
    }
    if (!classes.isEmpty()) {
      throw new StartupException(
          manifest.directory().resolve("receivers")
              + ": "
              + String.join(", ", classes)
              + " receives no declared event; a receiver class is named after its event, such as BillingTopupsPaid for billing.topups.paid");
    }
    return receptions;
  }

  /** {@code billing.topups.paid} → {@code BillingTopupsPaid}. */
  static String camel(String label) {
    StringBuilder name = new StringBuilder();
    for (String part : label.split("\\.")) {
      if (!part.isEmpty())
        name.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return name.toString();
  }

  @SuppressWarnings("unchecked")
  private static Receiver<Object> instantiate(ReceiverDeclaration declaration, Class<?> type) {
    if (!Receiver.class.isAssignableFrom(type)) {
      throw new StartupException(
          declaration.path()
              + ": "
              + type.getName()
              + " must implement io.toa4j.api.Receiver<Payload>");
    }
    try {
      var constructor = type.getDeclaredConstructor();
      constructor.setAccessible(true);
      return (Receiver<Object>) constructor.newInstance();
    } catch (ReflectiveOperationException e) {
      throw new StartupException(
          declaration.path() + ": " + type.getName() + " needs a constructor without arguments", e);
    }
  }

  private static Class<?> payloadType(ReceiverDeclaration declaration, Class<?> type) {
    for (Type t : type.getGenericInterfaces()) {
      if (t instanceof ParameterizedType p && p.getRawType() == Receiver.class) {
        Type argument = p.getActualTypeArguments()[0];
        if (argument instanceof Class<?> c) return c;
        if (argument instanceof ParameterizedType generic) return (Class<?>) generic.getRawType();
      }
    }
    throw new StartupException(
        declaration.path()
            + ": "
            + type.getName()
            + " must implement Receiver with its payload type, such as Receiver<Topup>");
  }
}
