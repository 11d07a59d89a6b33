package io.toa4j.runtime;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.ValueInstantiationException;
import tools.jackson.databind.node.MissingNode;

/**
 * Says why an input that fits its schema cannot be bound to the author's input class, in the
 * client's terms: the property by its JSON pointer, what was expected there and what was sent (such
 * as {@code /amount: expected a whole number from -9223372036854775808 to 9223372036854775807, got
 * 99999999999999999999}), never the class's name or the binder's own message. Stateless.
 */
final class InputErrors {
  private InputErrors() {}

  /**
   * The reason {@code input} could not be bound, for a {@link io.toa4j.api.Failure.Code#CONTRACT}
   * message.
   *
   * @param input the input tree that was being bound
   * @param e what the binder threw
   */
  static String describe(JsonNode input, Exception e) {
    Throwable thrown =
        e instanceof IllegalArgumentException && e.getCause() != null ? e.getCause() : e;
    // a value beyond its Java type is a stream error (InputCoercionException) in Jackson 3, not a
    // binding one, yet it carries the path of the property like one
    if (!(thrown instanceof DatabindException || thrown instanceof InputCoercionException)) {
      return "it does not fit the operation's input";
    }
    JacksonException mapping = (JacksonException) thrown;
    String pointer = pointer(mapping);
    JsonNode sent =
        input == null ? MissingNode.getInstance() : input.at(pointer.equals("/") ? "" : pointer);
    if (mapping instanceof ValueInstantiationException made) {
      Throwable cause = made.getCause();
      String why = cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
      return pointer + ": the operation's input type refuses the value" + why;
    }
    Class<?> target = target(mapping);
    String expected = target == null ? "another value" : expected(target);
    return pointer + ": expected " + expected + ", got " + got(sent);
  }

  /** The JSON pointer of the property the binder stopped at; {@code /} for the input itself. */
  private static String pointer(JacksonException e) {
    StringBuilder pointer = new StringBuilder();
    for (JacksonException.Reference reference : e.getPath()) {
      pointer.append('/');
      if (reference.getPropertyName() != null)
        pointer.append(reference.getPropertyName().replace("~", "~0").replace("/", "~1"));
      else if (reference.getIndex() >= 0) pointer.append(reference.getIndex());
    }
    return pointer.length() == 0 ? "/" : pointer.toString();
  }

  private static Class<?> target(JacksonException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InputCoercionException coercion && coercion.getTargetType() != null)
        return coercion.getTargetType();
      if (t instanceof MismatchedInputException mismatched && mismatched.getTargetType() != null)
        return mismatched.getTargetType();
    }
    return null;
  }

  private static String expected(Class<?> type) {
    if (type == long.class || type == Long.class)
      return "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
    if (type == int.class || type == Integer.class)
      return "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
    if (type == short.class || type == Short.class)
      return "a whole number from " + Short.MIN_VALUE + " to " + Short.MAX_VALUE;
    if (type == byte.class || type == Byte.class)
      return "a whole number from " + Byte.MIN_VALUE + " to " + Byte.MAX_VALUE;
    if (type == BigInteger.class) return "a whole number";
    if (type == double.class
        || type == Double.class
        || type == float.class
        || type == Float.class
        || type == BigDecimal.class) return "a number";
    if (type == boolean.class || type == Boolean.class) return "true or false";
    if (type == char.class || type == Character.class) return "a string of one character";
    if (type == String.class) return "a string";
    if (type.isEnum())
      return "one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf).toList();
    if (type.isArray() || Collection.class.isAssignableFrom(type)) return "an array";
    if (type.isPrimitive()) return "a " + type.getName();
    return Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.")
        ? "an object"
        : "another value";
  }

  private static String got(JsonNode sent) {
    if (sent.isMissingNode()) return "nothing";
    if (sent.isNull()) return "null";
    if (sent.isObject()) return "an object";
    if (sent.isArray()) return "an array";
    String text = sent.isString() ? "\"" + sent.asString() + "\"" : sent.toString();
    return text.length() > 64 ? text.substring(0, 61) + "..." : text;
  }
}
