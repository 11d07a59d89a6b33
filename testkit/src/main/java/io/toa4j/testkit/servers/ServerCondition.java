package io.toa4j.testkit.servers;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Runs a test marked {@link Needs} only when every server it needs is there. When one is missing,
 * the test is skipped with a reason starting {@value #NOT_RUN} (which {@link NotRunSummary} lists
 * at the end of the run), or, with {@value #REQUIRE} set to anything, fails saying what is missing
 * and how to start it: CI sets it, so a server that did not come up fails the build rather than
 * quietly taking its tests with it.
 */
public final class ServerCondition implements ExecutionCondition {
  /** The environment variable that turns a missing server from a skip into a failure. */
  public static final String REQUIRE = "TOA_REQUIRE_SERVERS";

  /** How the reason of a test skipped for a missing server starts. */
  public static final String NOT_RUN = "NOT RUN: ";

  /** The JVM's answers: the machine is asked once per server, whichever test asks first. */
  private static final Probe MACHINE = new Probe(System.getenv(), Banner.STDERR);

  private final Probe probe;

  /** The condition {@link Needs} registers, on this JVM's environment. */
  public ServerCondition() {
    this(MACHINE);
  }

  ServerCondition(Probe probe) {
    this.probe = probe;
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return context
        .getElement()
        .flatMap(element -> AnnotationSupport.findAnnotation(element, Needs.class))
        .map(needs -> evaluate(List.of(needs.value())))
        .orElse(ConditionEvaluationResult.enabled("needs no server"));
  }

  /**
   * Enabled when every server answers, disabled naming the missing ones otherwise.
   *
   * @throws IllegalStateException when one is missing and {@value #REQUIRE} is set
   */
  ConditionEvaluationResult evaluate(Collection<Server> needed) {
    List<String> absences = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    List<String> remedies = new ArrayList<>();
    for (Server server : needed) {
      Optional<String> absence = probe.absence(server);
      if (absence.isPresent()) {
        absences.add(absence.get());
        reasons.add(absence.get() + " (" + server.hint() + ")");
        remedies.add(server.remedy());
      }
    }
    if (absences.isEmpty()) {
      return ConditionEvaluationResult.enabled(
          needed.stream().map(Server::title).collect(Collectors.joining(" and ")) + " there");
    }
    if (probe.requiresServers()) {
      throw new IllegalStateException(
          String.join("; ", absences)
              + ", and "
              + REQUIRE
              + " is set, so the tests that need it fail rather than"
              + " being skipped. "
              + String.join(" ", remedies));
    }
    return ConditionEvaluationResult.disabled(NOT_RUN + String.join("; ", reasons));
  }
}
