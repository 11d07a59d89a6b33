package io.toa4j.cli;

import io.toa4j.api.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where a relayed {@code toa call} makes its call: the application of the {@code toa run} it was
 * relayed to, straight, instead of {@link Dispatch} (which would find this very process through
 * run.json and call it over its own channel).
 *
 * @param context the context this process serves
 * @param pid this process
 * @param port the control channel's port
 * @param caller the application, as the channel calls it
 */
record Served(Path context, long pid, int port, Caller caller) {
  Served {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(caller, "caller");
  }

  /**
   * Makes the call, telling the notes where it runs and under which identity.
   *
   * @throws io.toa4j.api.Failure when the call fails
   * @throws CliProblem when the command line names another context than the one served here
   */
  Reply call(Path named, Wire.Call call, Consumer<String> notes) {
    if (!serves(named)) {
      throw new CliProblem(
          "toa: the command line names the context in "
              + named
              + ", but it was relayed to pid "
              + pid
              + ", which serves "
              + context
              + "; call again from inside the context's folder, or name it with --context DIR",
          Toa.FAILED);
    }
    notes.accept(
        Dispatch.inRunning(call, pid, port)
            + ", which read the command line; "
            + Dispatch.identity(call));
    return caller.call(call.endpoint(), call.request(), call.identity());
  }

  /**
   * Whether the folder is the context served here, under this name or another (a symbolic link).
   */
  private boolean serves(Path named) {
    try {
      return named.equals(context) || Files.isSameFile(named, context);
    } catch (IOException e) {
      return false;
    }
  }
}
