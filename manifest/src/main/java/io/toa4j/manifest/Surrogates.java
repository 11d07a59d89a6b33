package io.toa4j.manifest;

import java.util.HexFormat;
import java.util.OptionalInt;

/**
 * Text as toa4j reads it from outside (a manifest, a request typed at the shell, a body at the
 * gateway): every UTF-16 surrogate in it is half of a pair. A lone one stands for no character and,
 * stored as UTF-8, becomes {@code ?}; UTF-8 itself cannot carry one, but a JSON or YAML escape
 * ({@code \udc00}) can, so the readers check every text they decode. Stateless.
 */
public final class Surrogates {
  /** What to do about a lone surrogate, for a message. */
  public static final String ADVICE =
      "send the character itself, or escape both halves of its UTF-16 pair (\\ud83d\\ude00 for U+1F600)";

  private Surrogates() {}

  /**
   * Where the first lone surrogate of the text is (a high one not followed by a low one, or a low
   * one alone); empty when none is.
   */
  public static OptionalInt lone(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return OptionalInt.of(i);
      }
    }
    return OptionalInt.empty();
  }

  /**
   * What is wrong with the text, whose lone surrogate is at {@code at}, in words a sender reads.
   */
  public static String problem(CharSequence text, int at) {
    return "a text holds \\u"
        + HexFormat.of().toHexDigits(text.charAt(at))
        + " as its character "
        + (at + 1)
        + ", a lone surrogate: half of a UTF-16 pair, which stands for no character";
  }
}
