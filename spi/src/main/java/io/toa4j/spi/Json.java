package io.toa4j.spi;

import java.util.Objects;

/**
 * A JSON value as text: how records, changes, answers and messages cross the SPI. Immutable, so no
 * adapter can change what it was handed or what it handed back, and free of any JSON library, so
 * adapters depend on no particular one: a store keeps the text and gives it back, a bus carries it.
 * The runtime writes it and reads it; an adapter never needs to look inside.
 *
 * <p>The text is what the runtime wrote, not checked here: a store that gives back another text of
 * the same value (PostgreSQL's {@code jsonb} orders keys its own way) gives back the same value.
 * Equal when the texts are equal.
 *
 * @param text the value in JSON, such as {@code {"balance":5000}}
 */
public record Json(String text) {
  /** JSON's {@code null}. */
  public static final Json NULL = new Json("null");

  /** An empty object, {@code {}}. */
  public static final Json EMPTY_OBJECT = new Json("{}");

  public Json {
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) throw new IllegalArgumentException("a JSON value's text is not blank");
  }

  /** The text, as it was written. */
  @Override
  public String toString() {
    return text;
  }
}
