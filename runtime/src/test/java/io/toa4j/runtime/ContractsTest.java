package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Failure;
import io.toa4j.api.Reply;
import io.toa4j.api.Request;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contracts as Toa checks them, on the embedded engine: {@code nullable}, input defaults applied
 * before the input is validated and bound, outputs checked against their schema when checks are on,
 * and a refusal code not declared under {@code errors} refused saying how to declare it.
 */
class ContractsTest {
  static final String ID = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  private Path context() {
    Contexts.write(directory, "context.toa.yaml", "name: test\n");
    Contexts.write(
        directory,
        "components/test.counters/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            count: { type: integer }
        operations:
          echo:
            type: computation
            input:
              type: object
              properties:
                step: { type: integer, minimum: 1, default: 1 }
                note: { type: string, nullable: true, default: null }
                options:
                  type: object
                  properties:
                    loud: { type: boolean, default: false }
              additionalProperties: false
            output: { type: object }
          tally:
            type: transition
            query: true
            input: { type: object, properties: { step: { type: integer, default: 2 } } }
            output: { type: object, properties: { total: { type: integer } }, required: [total] }
          deny:
            type: computation
            errors: [CLOSED]
        """);
    Contexts.write(
        directory,
        "components/test.counters/Counter.java",
        """
        package test.counters;
        public class Counter extends io.toa4j.api.Entry {
          public long count;
        }
        """);
    Contexts.write(
        directory,
        "components/test.counters/operations/Echo.java",
        """
        package test.counters.operations;
        import io.toa4j.api.*;
        public class Echo implements Computation<Echo.In> {
          public record Settings(boolean loud) {}
          public record In(int step, String note, Settings options) {}
          public Object computation(In input) {
            return input;
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.counters/operations/Tally.java",
        """
        package test.counters.operations;
        import io.toa4j.api.*;
        import java.util.Map;
        public class Tally implements Transition<Tally.In, test.counters.Counter> {
          public record In(int step) {}
          public Object transition(In input, test.counters.Counter entry) {
            entry.count += input.step();
            return Map.of("total", "many"); // the schema says an integer
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.counters/operations/Deny.java",
        """
        package test.counters.operations;
        import io.toa4j.api.*;
        public class Deny implements Computation<Void> {
          public Object computation(Void input) {
            return Refusal.of("GONE");
          }
        }
        """);
    return directory;
  }

  @Test
  void missingInputProperties_getTheirDefaults_atTheTopAndInsideAGivenObject() {
    try (Toa toa = Toa.builder().directory(context()).build()) {
      Reply reply = toa.call("test.counters.echo", Request.input(Map.of("options", Map.of())));

      assertThat(Shop.output(reply))
          .containsEntry("step", 1L)
          .containsEntry("options", Map.of("loud", false))
          .containsKey("note");
      assertThat(Shop.output(reply).get("note")).isNull();
    }
  }

  @Test
  void givenInput_isKeptAndStillValidated_nullWhereNullable() {
    try (Toa toa = Toa.builder().directory(context()).build()) {
      Reply reply = toa.call("test.counters.echo", Request.input(Map.of("step", 3, "note", "hi")));

      assertThat(Shop.output(reply))
          .containsEntry("step", 3L)
          .containsEntry("note", "hi")
          .as("a missing object is not created to hold its properties' defaults")
          .containsEntry("options", null);
      assertThatThrownBy(() -> toa.call("test.counters.echo", Request.input(Map.of("step", 0))))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.CONTRACT))
          .hasMessageContaining("the input of test.counters.echo does not fit its schema: /step:");
    }
  }

  @Test
  void outputThatDoesNotFit_withChecksOn_failsNamingOperationAndPointer_andWritesNothing() {
    try (Toa toa =
        Toa.builder().directory(context()).options(Options.defaults().withChecks(true)).build()) {
      assertThatThrownBy(() -> toa.call("test.counters.tally", Request.of(ID, Map.of())))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.RESPONSE_CONTRACT))
          .hasMessageContainingAll(
              "the output of test.counters.tally does not fit its schema: /total: string found, integer expected",
              "checks are on");

      assertThat(Shop.output(toa.call("test.counters.observe", Request.id(ID))))
          .as("the transition's record was not written")
          .containsEntry("VERSION", 0L);
    }
  }

  @Test
  void outputThatDoesNotFit_withChecksOff_isAnsweredAsReturned_andTheDefaultIsApplied() {
    try (Toa toa = Toa.builder().directory(context()).build()) {
      Reply reply = toa.call("test.counters.tally", Request.of(ID, Map.of()));

      assertThat(Shop.output(reply)).containsEntry("total", "many");
      assertThat(Shop.output(toa.call("test.counters.observe", Request.id(ID))))
          .as("the default step of 2 was bound")
          .containsEntry("count", 2L)
          .containsEntry("VERSION", 1L);
    }
  }

  @Test
  void refusalCodeNotDeclared_isRefusedSayingToa4jRequiresItAndHowToDeclareIt() {
    try (Toa toa = Toa.builder().directory(context()).build()) {
      assertThatThrownBy(() -> toa.call("test.counters.deny", Request.empty()))
          .isInstanceOfSatisfying(
              Failure.class, f -> assertThat(f.code()).isEqualTo(Failure.Code.RESPONSE_CONTRACT))
          .hasMessageContainingAll(
              "test.counters.deny refused with GONE, which it does not declare under errors (declared: CLOSED)",
              "toa4j requires every refusal code an operation returns to be declared",
              "operations: { deny: { errors: [CLOSED, GONE] } }");
    }
  }
}
