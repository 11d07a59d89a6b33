package io.toa4j.cli;

import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.Manifests;
import io.toa4j.runtime.Options;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code toa run}: serves the context until the process is told to stop. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Boots the context and serves it until stopped with Ctrl-C or SIGTERM.",
      "",
      "On the embedded bus (the default) one process hosts every component. While it runs, toa call",
      "in the same context is answered by this process: it listens on 127.0.0.1 (a port the system",
      "picks) and writes the port, its pid and a secret token to .toa/run.json, which it removes when",
      "it stops. Only one toa run serves such a context at a time.",
      "",
      "On a distributed bus (bus: rabbitmq) a process hosts the components it is given, all when none",
      "is; any number of processes may host the same one, and toa call reaches them over the bus."
    })
final class RunCommand implements Callable<Integer> {
  @ParentCommand private Toa toa;

  @Option(
      names = "--http",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:8000",
      description =
          "Where the HTTP gateway listens when a component declares an exposition; port 0 takes a free one,"
              + " logged as 'HTTP gateway on HOST:PORT'. An address in use exits 1. Default: ${DEFAULT-VALUE}.")
  private String http;

  @Parameters(
      arity = "0..*",
      paramLabel = "<component>",
      description =
          "The components this process hosts, such as billing.wallets (a distributed bus only). Default: all of them.")
  private List<String> components = List.of();

  @Option(
      names = "--wait",
      paramLabel = "SECONDS",
      defaultValue = "forever",
      description = {
        "How long to wait at start for a storage or bus server that cannot be reached yet, trying again",
        "with a log line each time; 0 fails at once. Default: ${DEFAULT-VALUE}."
      })
  private String wait;

  @Override
  public Integer call() throws InterruptedException {
    // Not a static field: picocli makes every command up front, and the first logger fixes
    // SLF4J Simple's level, which toa call lowers before it logs anything.
    Logger log = LoggerFactory.getLogger("toa");
    Duration startupWait = startupWait(wait);
    InetSocketAddress address = address(http);
    Path context = toa.context();
    requireKnown(context, components);
    spareJettyThePlatformMBeanServer();
    Serving serving = Serving.start(context, new SecureRandom(), address, startupWait, components);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  serving.close();
                  log.info("Context {} stopped", serving.name());
                  stopped.countDown();
                  // A stop asked for (SIGTERM, Ctrl-C) and drained cleanly is a success: without
                  // this the JVM reports the signal (143). A close that threw never gets here.
                  Runtime.getRuntime().halt(Toa.OUTPUT);
                },
                "toa-shutdown"));
    if (serving.run().isPresent()) {
      log.info(
          "Context {} is served by pid {}: toa call reaches it on {}:{} through {}; stop it with Ctrl-C or SIGTERM",
          serving.name(),
          serving.run().get().pid(),
          ControlChannel.HOST,
          serving.run().get().port(),
          serving.file());
    } else {
      log.info(
          "Context {}: pid {} hosts {}; toa call reaches them over the bus; stop it with Ctrl-C or SIGTERM",
          serving.name(),
          ProcessHandle.current().pid(),
          String.join(", ", new TreeSet<>(serving.hosted())));
    }
    RunArchive.writeWhenAsked(log);
    stopped.await(); // the JVM ends in the shutdown hook; this thread only has to stay
    return Toa.OUTPUT;
  }

  /**
   * Jetty pads its thread pool's queue by the references that fit a cache line, which it learns,
   * unless told, by starting the platform MBean server to ask whether oops are compressed: about a
   * tenth of a second of a run's start. They are below a 32 GiB heap unless turned off; a wrong
   * guess only pads the queue less or more than it might.
   */
  private static void spareJettyThePlatformMBeanServer() {
    String property = "org.eclipse.jetty.util.referencesPerCacheLine";
    if (System.getProperty(property) != null) return;
    boolean compressed = Runtime.getRuntime().maxMemory() < 32L << 30;
    System.setProperty(property, compressed ? "16" : "8");
  }

  /** Refuses, as bad usage, a label that names no component of the context. */
  private static void requireKnown(Path context, List<String> labels) {
    if (labels.isEmpty()) return;
    TreeSet<String> known = new TreeSet<>();
    Manifests.loadContext(context).components().stream()
        .map(ComponentManifest::label)
        .forEach(known::add);
    for (String label : labels) {
      String full = label.indexOf('.') < 0 ? "default." + label : label;
      if (!known.contains(full)) {
        throw new CliProblem(
            "toa: the context in "
                + context
                + " has no component '"
                + label
                + "'; it has "
                + String.join(", ", known)
                + "\nUsage: toa run [<component>...]",
            Toa.USAGE);
      }
    }
  }

  private static Duration startupWait(String wait) {
    if (wait.equals("forever")) return Options.FOREVER;
    try {
      long seconds = Long.parseLong(wait);
      if (seconds < 0) throw new NumberFormatException();
      return Duration.ofSeconds(seconds);
    } catch (NumberFormatException e) {
      throw new CliProblem(
          "toa: --wait takes a number of seconds (0 or more) or 'forever'; got '" + wait + "'",
          Toa.USAGE);
    }
  }

  private static InetSocketAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    try {
      if (colon <= 0) throw new NumberFormatException();
      int port = Integer.parseInt(hostPort.substring(colon + 1));
      if (port < 0 || port > 65535) throw new NumberFormatException();
      return new InetSocketAddress(hostPort.substring(0, colon), port);
    } catch (NumberFormatException e) {
      throw new CliProblem(
          "toa: --http takes HOST:PORT, such as 127.0.0.1:8000; got '" + hostPort + "'", Toa.USAGE);
    }
  }
}
