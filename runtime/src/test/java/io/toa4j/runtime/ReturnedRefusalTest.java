package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write that returns another operation's refusal as it is refuses: nothing is committed. */
class ReturnedRefusalTest {
  static final String ID = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  @Test
  void transition_returningARefusedReply_commitsNothing() {
    Contexts.write(directory, "context.toa.yaml", "name: test\n");
    Contexts.write(
        directory,
        "components/test.gates/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            passed: { type: integer }
        operations:
          pass:
            query: true
            errors: [CLOSED]
        """);
    Contexts.write(
        directory,
        "components/test.gates/Gate.java",
        """
        package test.gates;
        public class Gate extends io.toa4j.api.Entry {
          public long passed;
        }
        """);
    Contexts.write(
        directory,
        "components/test.gates/operations/Pass.java",
        """
        package test.gates.operations;
        import io.toa4j.api.*;
        public class Pass implements Transition<Void, test.gates.Gate> {
          public Object transition(Void input, test.gates.Gate entry) {
            entry.passed++;
            return new Reply.Refused(Refusal.of("CLOSED")); // as a call to another operation answered it
          }
        }
        """);

    try (Toa toa = Toa.builder().directory(directory).build()) {
      Reply reply = toa.call("test.gates.pass", Request.id(ID));

      assertThat(reply)
          .isInstanceOfSatisfying(
              Reply.Refused.class, r -> assertThat(r.refusal().code()).isEqualTo("CLOSED"));
      assertThat(Shop.output(toa.call("test.gates.observe", Request.id(ID))))
          .as("the associated record was never written")
          .containsEntry("VERSION", 0L);
    }
  }
}
