package io.toa4j.cli;

import io.toa4j.api.Reply;
import io.toa4j.runtime.ToaBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where a {@code toa call} runs: in the process serving the context when {@code .toa/run.json}
 * names a live one whose channel accepts the connection; else, on a distributed bus, at a process
 * hosting the call's component, reached over the bus (nothing is hosted here); else in this
 * process, booting the context for the one call, waiting until the events it caused are handled,
 * and closing it. In-process calls on one context take turns ({@link CallLock}).
 */
final class Dispatch {
  /**
   * How long an in-process call waits for the events it caused. A receiver that keeps failing is
   * retried for minutes; the call does not wait for that, and what is left stays queued.
   */
  static final Duration SETTLE = Duration.ofSeconds(30);

  private Dispatch() {}

  /**
   * Makes the call, telling the notes where it runs and under which identity, and the warnings what
   * an in-process call caused that was retried, parked or left unhandled.
   *
   * @throws io.toa4j.api.Failure when the call fails
   * @throws io.toa4j.manifest.ManifestException when booting in-process finds a manifest that does
   *     not fit
   * @throws io.toa4j.runtime.StartupException when booting in-process finds code that does not
   *     compile or fit
   * @throws CliProblem when another in-process call keeps the context longer than {@link
   *     CallLock#WAIT}
   */
  static Reply call(
      Path context, Wire.Call call, Consumer<String> notes, Consumer<String> warnings) {
    Optional<Reply> served = throughRun(context, call, notes);
    if (served.isPresent()) return served.get();
    ToaBuilder builder = io.toa4j.runtime.Toa.builder().directory(context);
    if (builder.distributed()) {
      try (io.toa4j.runtime.Toa client = builder.connect()) {
        notes.accept(
            "toa: calling "
                + call.endpoint()
                + " over the "
                + client.context().bus().name()
                + " bus; "
                + identity(call));
        // toa call always mints the identity, so the host runs the call under the one it printed
        return client.call(
            call.endpoint(),
            call.request(),
            call.identity().orElseGet(io.toa4j.runtime.Toa::newIdentity));
      }
    }
    // The embedded bus has one consumer: a second call booting the context now would fail.
    try (CallLock lock = CallLock.take(context, CallLock.WAIT, notes)) {
      if (lock.waited()) {
        served = throughRun(context, call, notes); // a toa run may have started meanwhile
        if (served.isPresent()) return served.get();
      }
      return inProcess(builder, context, call, notes, warnings);
    }
  }

  /** The call made in the toa run serving the context, when one runs and answers. */
  private static Optional<Reply> throughRun(Path context, Wire.Call call, Consumer<String> notes) {
    Path file = RunFile.path(context);
    Optional<RunFile> running = RunFile.read(file);
    if (running.isPresent() && running.get().alive()) {
      RunFile run = running.get();
      notes.accept(inRunning(call, run.pid(), run.port()) + "; " + identity(call));
      try {
        return Optional.of(new ChannelClient(run).call(call));
      } catch (ChannelClient.Unreachable e) {
        notes.accept(
            "toa: pid "
                + run.pid()
                + " does not answer on port "
                + run.port()
                + " ("
                + e.getMessage()
                + "); calling in-process instead");
      }
    } else if (running.isPresent()) {
      notes.accept(
          "toa: " + file + " is left over: pid " + running.get().pid() + " no longer runs");
    }
    return Optional.empty();
  }

  /**
   * Boots the context here, makes the call, waits until what it caused is handled, and tells the
   * warnings, one line each, what was retried, parked or left pending.
   */
  private static Reply inProcess(
      ToaBuilder builder,
      Path context,
      Wire.Call call,
      Consumer<String> notes,
      Consumer<String> warnings) {
    notes.accept(
        "toa: calling "
            + call.endpoint()
            + " in-process, booting "
            + context
            + "; "
            + identity(call));
    long booted = System.currentTimeMillis();
    try (io.toa4j.runtime.Toa application = builder.build()) {
      Reply reply = Caller.of(application).call(call.endpoint(), call.request(), call.identity());
      Optional<String> pending = application.admin().settle(SETTLE);
      Consequences.of(application, booted).forEach(warnings);
      pending.ifPresent(
          what ->
              warnings.accept(
                  "toa: the call is done, but after "
                      + SETTLE.toSeconds()
                      + " s what it caused is still pending ("
                      + what
                      + "); it stays queued and is handled when the context runs next"));
      return reply;
    }
  }

  /** The note that a call runs in the process serving the context. */
  static String inRunning(Wire.Call call, long pid, int port) {
    return "toa: calling "
        + call.endpoint()
        + " in the running context, pid "
        + pid
        + " (port "
        + port
        + ")";
  }

  static String identity(Wire.Call call) {
    return call.identity().map(id -> "identity " + id).orElse("identity minted by the application");
  }
}
