package io.toa4j.bus.rabbitmq;

import com.rabbitmq.client.AMQP;
import io.toa4j.spi.Delivery;
import io.toa4j.spi.Json;
import io.toa4j.spi.Message;
import io.toa4j.spi.Parked;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.StringNode;

/**
 * A {@link Message} as an AMQP message, and back: the id is {@code message-id}, the label is {@code
 * type}, the body is JSON, the message's headers are AMQP headers of the same names, and the bus's
 * own facts are headers starting with {@code toa-}. Reading never fails: a body that is not JSON
 * becomes a JSON string, so a stranger's message can still be handled or parked. Thread-safe.
 */
final class Codec {
  static final String ATTEMPT = "toa-attempt";
  static final String PARKED_ID = "toa-parked-id";
  static final String QUEUE = "toa-queue";
  static final String CODE = "toa-code";
  static final String REASON = "toa-reason";
  static final String ATTEMPTS = "toa-attempts";
  static final String PARKED_AT = "toa-parked-at";
  static final String FIRST_FAILED = "toa-first-failed";
  private static final ObjectMapper JSON = new ObjectMapper();

  private Codec() {}

  /** Persistent, with this attempt number and the given extra facts. */
  static AMQP.BasicProperties properties(
      Message message, int attempt, Map<String, Object> facts, String expiration) {
    Map<String, Object> headers = new HashMap<>(message.headers());
    headers.putAll(facts);
    headers.put(ATTEMPT, attempt);
    return new AMQP.BasicProperties.Builder()
        .messageId(message.id())
        .type(message.label())
        .contentType("application/json")
        .deliveryMode(2)
        .expiration(expiration)
        .headers(headers)
        .build();
  }

  static AMQP.BasicProperties properties(Message message, int attempt) {
    return properties(message, attempt, Map.of(), null);
  }

  static byte[] body(Message message) {
    return message.body().text().getBytes(StandardCharsets.UTF_8);
  }

  static Message message(AMQP.BasicProperties properties, byte[] body) {
    Map<String, String> headers = new HashMap<>();
    if (properties.getHeaders() != null) {
      properties
          .getHeaders()
          .forEach(
              (name, value) -> {
                if (!name.startsWith("toa-") && !name.startsWith("x-") && value != null) {
                  headers.put(name, value.toString());
                }
              });
    }
    return new Message(
        orElse(properties.getMessageId(), "(no message id)"),
        orElse(properties.getType(), "(no label)"),
        json(body),
        headers);
  }

  /** The attempt this delivery is: the one its copy says, one more when the broker redelivers. */
  static int attempt(AMQP.BasicProperties properties, boolean redelivered) {
    return (int) number(properties, ATTEMPT, 1) + (redelivered ? 1 : 0);
  }

  /**
   * When a verdict first failed the message, as its copy says; empty on a copy that never failed.
   */
  static OptionalLong firstFailed(AMQP.BasicProperties properties) {
    long at = number(properties, FIRST_FAILED, -1);
    return at < 0 ? OptionalLong.empty() : OptionalLong.of(at);
  }

  /**
   * The facts a failing verdict's copy carries: the first failure, kept from the delivery or now.
   */
  static Map<String, Object> failed(Delivery delivery, long now) {
    return Map.of(FIRST_FAILED, delivery.firstFailed().orElse(now));
  }

  static Parked parked(AMQP.BasicProperties properties, byte[] body) {
    long at = number(properties, PARKED_AT, 0);
    return new Parked(
        text(properties, PARKED_ID),
        text(properties, QUEUE),
        message(properties, body),
        text(properties, CODE),
        text(properties, REASON),
        (int) number(properties, ATTEMPTS, 0),
        at,
        number(properties, FIRST_FAILED, at));
  }

  static String text(AMQP.BasicProperties properties, String header) {
    Object value = properties.getHeaders() == null ? null : properties.getHeaders().get(header);
    return value == null ? "" : value.toString();
  }

  private static long number(AMQP.BasicProperties properties, String header, long fallback) {
    Object value = properties.getHeaders() == null ? null : properties.getHeaders().get(header);
    if (value instanceof Number n) return n.longValue();
    try {
      return value == null ? fallback : Long.parseLong(value.toString());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  /**
   * The body as the runtime wrote it; one that is not JSON (put there by hand) as a JSON string.
   */
  private static Json json(byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    try {
      JSON.readTree(text);
      return new Json(text);
    } catch (JacksonException e) {
      return new Json(StringNode.valueOf(text).toString());
    }
  }

  private static String orElse(String value, String fallback) {
    return value == null ? fallback : value;
  }
}
