package io.toa4j.testkit.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;

/** The end-of-run banner: every test not run for want of a server, and nothing when all ran. */
class NotRunSummaryTest {
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
  private final NotRunSummary summary =
      new NotRunSummary(new PrintStream(printed, true, StandardCharsets.UTF_8));

  private static TestIdentifier test(String name, TestSource source) {
    TestDescriptor descriptor =
        new AbstractTestDescriptor(
            UniqueId.forEngine("junit-jupiter").append("test", name), name, source) {
          @Override
          public Type getType() {
            return Type.CONTAINER;
          }
        };
    return TestIdentifier.from(descriptor);
  }

  @Test
  void skippedForAServer_areListedByClassAndTest_whenTheRunEnds() {
    summary.executionSkipped(
        test("RabbitBusTest", ClassSource.from("io.toa4j.bus.rabbitmq.RabbitBusTest")),
        "NOT RUN: RabbitMQ does not answer at 127.0.0.1:5672, the default (start it, or set TOA_RABBITMQ_URL)");
    summary.executionSkipped(
        test(
            "closedBus()",
            MethodSource.from("io.toa4j.bus.rabbitmq.ProviderTest", "closedBus", "")),
        "NOT RUN: RabbitMQ does not answer at 127.0.0.1:5672, the default (start it, or set TOA_RABBITMQ_URL)");
    assertThat(printed.toString(StandardCharsets.UTF_8)).as("nothing before the end").isEmpty();

    summary.testPlanExecutionFinished(null);

    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("!! NOT RUN, for want of a server they need: 2 test classes or tests")
        .contains(
            "!!   ProviderTest.closedBus(): RabbitMQ does not answer at 127.0.0.1:5672, the default")
        .contains("!!   RabbitBusTest: RabbitMQ does not answer at 127.0.0.1:5672, the default")
        .contains("TOA_REQUIRE_SERVERS=1");
  }

  @Test
  void everythingRan_printsNothing() {
    summary.executionSkipped(
        test("Later", ClassSource.from("io.toa4j.Later")), "@Disabled: not yet");

    summary.testPlanExecutionFinished(null);

    assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
