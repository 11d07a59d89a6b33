package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Values made through their constructors are read by {@link Binding#VALUES} as Jackson reads them,
 * with the constructor called through a handle made once ({@link Constructors}) instead of {@code
 * invokeWithArguments} on every call.
 */
class ConstructorsTest {
  /** What Binding.VALUES is without Constructors. */
  private static final ObjectMapper JACKSON = Binding.values().build();

  private static final AtomicReference<List<String>> CALLERS = new AtomicReference<>();

  public record Credit(String customer, long amount, List<String> tags) {
    public Credit {
      CALLERS.set(
          StackWalker.getInstance()
              .walk(
                  frames -> frames.map(f -> f.getClassName() + "." + f.getMethodName()).toList()));
    }
  }

  public record Positive(long amount) {
    public Positive {
      if (amount <= 0) throw new IllegalArgumentException("amount must be positive, got " + amount);
    }
  }

  @Test
  void record_isReadAsJacksonReadsIt_withItsConstructorCalledThroughTheHandle() {
    JsonNode input =
        Binding.VALUES.readTree(
            "{\"customer\":\"c1\",\"amount\":5,\"tags\":[\"a\",\"b\"],\"other\":1}");

    Credit read = Binding.VALUES.treeToValue(input, Credit.class);

    assertThat(read).isEqualTo(new Credit("c1", 5, List.of("a", "b")));
    assertThat(read).isEqualTo(JACKSON.treeToValue(input, Credit.class));
    Binding.VALUES.treeToValue(
        input, Credit.class); // again: Jackson's own call above set CALLERS last
    assertThat(CALLERS.get())
        .anyMatch(frame -> frame.startsWith(Constructors.class.getName()))
        .noneMatch(frame -> frame.endsWith(".invokeWithArguments"));
  }

  @Test
  void constructorThatThrows_failsAsWithJackson_sameClassAndMessage() {
    JsonNode input = Binding.VALUES.readTree("{\"amount\":0}");

    Throwable ours = catchThrowable(() -> Binding.VALUES.treeToValue(input, Positive.class));
    Throwable jacksons = catchThrowable(() -> JACKSON.treeToValue(input, Positive.class));

    assertThat(ours).isNotNull().hasSameClassAs(jacksons).hasMessage(jacksons.getMessage());
    assertThat(ours)
        .hasRootCauseInstanceOf(IllegalArgumentException.class)
        .hasRootCauseMessage("amount must be positive, got 0");
  }

  @Test
  void missingAndNullArguments_readAsWithJackson() {
    JsonNode missing = Binding.VALUES.readTree("{\"customer\":\"c1\"}");
    assertThat(Binding.VALUES.treeToValue(missing, Credit.class))
        .isEqualTo(JACKSON.treeToValue(missing, Credit.class))
        .isEqualTo(new Credit("c1", 0, null));

    JsonNode nullPrimitive = Binding.VALUES.readTree("{\"customer\":\"c1\",\"amount\":null}");
    Throwable ours = catchThrowable(() -> Binding.VALUES.treeToValue(nullPrimitive, Credit.class));
    Throwable jacksons = catchThrowable(() -> JACKSON.treeToValue(nullPrimitive, Credit.class));
    assertThat(ours).isNotNull().hasSameClassAs(jacksons).hasMessage(jacksons.getMessage());
  }
}
