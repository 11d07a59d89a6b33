package io.toa4j.testkit.servers;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * At the end of a test run, a banner listing every test class (or test) that was not run because a
 * server it needs is missing, and why: the skip counts of a build are easy to miss, a suite not run
 * should not be. Prints nothing when everything ran. Registered with the JUnit Platform through
 * {@code META-INF/services}, so it listens to every run that has the testkit.
 */
public final class NotRunSummary implements TestExecutionListener {
  private final PrintStream out;
  private final Map<String, String> notRun = new ConcurrentHashMap<>();

  /** The listener the JUnit Platform finds, printing on the process's standard error. */
  public NotRunSummary() {
    this(Banner.STDERR);
  }

  NotRunSummary(PrintStream out) {
    this.out = out;
  }

  @Override
  public void executionSkipped(TestIdentifier test, String reason) {
    if (reason != null && reason.startsWith(ServerCondition.NOT_RUN)) {
      notRun.put(name(test), reason.substring(ServerCondition.NOT_RUN.length()));
    }
  }

  @Override
  public void testPlanExecutionFinished(TestPlan plan) {
    if (notRun.isEmpty()) return;
    List<String> lines = new ArrayList<>();
    lines.add(
        "NOT RUN, for want of a server they need: "
            + notRun.size()
            + (notRun.size() == 1 ? " test class or test" : " test classes or tests"));
    notRun.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> lines.add("  " + e.getKey() + ": " + e.getValue()));
    lines.add(
        "Start the servers to run them; "
            + ServerCondition.REQUIRE
            + "=1 makes a missing server fail the build.");
    Banner.print(out, lines);
    notRun.clear();
  }

  /**
   * {@code PostgresStorageTest}, or {@code ProviderTest.closedBus_anyCall_failsSayingSo()} for one
   * test.
   */
  private static String name(TestIdentifier test) {
    TestSource source = test.getSource().orElse(null);
    if (source instanceof MethodSource method) {
      return simple(method.getClassName()) + "." + method.getMethodName() + "()";
    }
    if (source instanceof ClassSource type) return simple(type.getClassName());
    return test.getDisplayName();
  }

  private static String simple(String className) {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
