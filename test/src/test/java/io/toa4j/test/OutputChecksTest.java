package io.toa4j.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The test kit checks each output against its operation's schema, unless a test says otherwise. */
class OutputChecksTest {
  @TempDir Path folder;

  private Path context() throws Exception {
    write("context.toa.yaml", "name: kit\n");
    write(
        "components/kit.clock/manifest.toa.yaml",
        """
        operations:
          now:
            type: computation
            output: { type: object, properties: { hour: { type: integer, maximum: 23 } } }
        """);
    write(
        "components/kit.clock/operations/Now.java",
        """
        package kit.clock.operations;
        import io.toa4j.api.*;
        public class Now implements Computation<Void> {
          public Object computation(Void input) {
            return java.util.Map.of("hour", 25);
          }
        }
        """);
    return folder;
  }

  private void write(String relative, String text) throws Exception {
    Path file = folder.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  @Test
  void anOutputThatDoesNotFit_failsTheCallUnderTest() throws Exception {
    ToaContext toa = ToaContext.folder(context());
    toa.start();
    try {
      assertThatThrownBy(() -> toa.call("kit.clock.now", Request.empty()))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.RESPONSE_CONTRACT))
          .hasMessageContaining("the output of kit.clock.now does not fit its schema: /hour:");
    } finally {
      toa.close();
    }
  }

  @Test
  void withChecksTurnedOff_theOutputIsAnsweredAsReturned() throws Exception {
    ToaContext toa =
        ToaContext.folder(context())
            .with(b -> b.options(Options.defaults().withEnvironment(Map.of())));
    toa.start();
    try {
      assertThat(toa.call("kit.clock.now", Request.empty())).has("hour", 25);
    } finally {
      toa.close();
    }
  }
}
