package io.toa4j.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code toa call} relayed to the {@code toa run} serving the context: the command line goes as it
 * was typed, {@code toa run} parses it, makes the call and prints the reply exactly as this process
 * would, and this process writes what came back and exits with its code. The common case of a short
 * command, done without picocli, Jackson or SLF4J, which are most of what such a command would
 * otherwise load and run once.
 *
 * <p>Only java.base is used here: a class of a library touched on the way (a static field, a
 * signature) would be loaded, and the point lost. A test loads this class without them.
 *
 * <p>Everything else runs in this process as before ({@link Main}): a command line that is not a
 * plain {@code toa call} (help, version, {@code @file}s, options call does not have), no {@code
 * .toa/run.json} or one whose process is gone, a channel that takes no connection or answers
 * anything but a relayed command's result. None of these ran anything there. Once the command line
 * is sent, it is never run here as well: an exchange that breaks off may have run it.
 */
final class Relay {
  /** The control channel's route for relayed command lines. */
  static final String PATH = "/relay";

  private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
  private static final int MAX_LINE = 8192;

  private Relay() {}

  /**
   * Relays the command line when it can, writing what it printed there to these streams.
   *
   * @param directory the working directory, absolute
   * @return the exit code, when relayed; empty when the command line is to run here
   */
  static OptionalInt attempt(List<String> args, Path directory, PrintStream out, PrintStream err) {
    if (!relayable(args)) return OptionalInt.empty();
    Optional<RunFile> running;
    try {
      Path context = ContextFolder.locate(option(args, "--context").map(Path::of), directory);
      running = RunFile.read(RunFile.path(context)).filter(RunFile::alive);
    } catch (CliProblem | InvalidPathException e) {
      return OptionalInt.empty(); // here, the command line says so in its own words
    }
    if (running.isEmpty()) return OptionalInt.empty();
    byte[] command = new RelayedCommand(args, directory, Charset.defaultCharset(), ansi()).bytes();
    try (Socket socket = new Socket()) {
      try {
        socket.connect(
            new InetSocketAddress(ControlChannel.HOST, running.get().port()),
            CONNECT_TIMEOUT_MILLIS);
      } catch (IOException e) {
        return OptionalInt.empty(); // nothing was sent
      }
      try {
        Optional<RelayedCommand.Answer> answer = exchange(socket, running.get(), command);
        if (answer.isEmpty()) return OptionalInt.empty();
        err.writeBytes(answer.get().err());
        err.flush();
        out.writeBytes(answer.get().out());
        out.flush();
        return OptionalInt.of(answer.get().exitCode());
      } catch (IOException | Wire.Malformed e) {
        err.println(
            brokeOff(
                running.get().pid(),
                "the call of " + positional(args, 1).orElse("(no endpoint)"),
                e));
        return OptionalInt.of(Toa.FAILED);
      }
    } catch (IOException e) {
      return OptionalInt.empty(); // no socket could be made: nothing was sent
    }
  }

  /**
   * Whether the channel runs this command line: {@code toa call} with call's options and {@code
   * --context} only. Anything else is left to this process, which says what is wrong with it or
   * prints what was asked for: help and version, {@code --} and options unknown to call, an
   * argument that starts with {@code @} (picocli reads it as a file of arguments, relative to this
   * process's working directory).
   */
  static boolean relayable(List<String> args) {
    boolean named = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--context") || arg.equals("--id")) {
        if (++i == args.size()) return false;
      } else if (arg.startsWith("--context=")
          || arg.startsWith("--id=")
          || arg.equals("--verbose")) {
        continue;
      } else if (arg.startsWith("-") || arg.startsWith("@")) {
        return false;
      } else if (!named) {
        if (!arg.equals("call")) return false;
        named = true;
      }
    }
    return named;
  }

  /** The value of an option given as {@code --name value} or {@code --name=value}, first one. */
  private static Optional<String> option(List<String> args, String name) {
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals(name) && i + 1 < args.size()) return Optional.of(args.get(i + 1));
      if (args.get(i).startsWith(name + "="))
        return Optional.of(args.get(i).substring(name.length() + 1));
    }
    return Optional.empty();
  }

  /**
   * The n-th argument that is neither an option nor an option's value, the command being the 0th.
   */
  private static Optional<String> positional(List<String> args, int n) {
    int seen = 0;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--context") || arg.equals("--id")) i++;
      else if (!arg.startsWith("-") && seen++ == n) return Optional.of(arg);
    }
    return Optional.empty();
  }

  /**
   * Whether picocli would colour the usage help here: on a terminal, unless {@code NO_COLOR} is set
   * (picocli's {@code Ansi.AUTO}, its main cases).
   */
  private static boolean ansi() {
    return System.console() != null
        && System.getenv("NO_COLOR") == null
        && !"0".equals(System.getenv("CLICOLOR"));
  }

  /**
   * Sends the command line in one HTTP/1.1 request and reads the answer. By hand on a socket, not
   * through {@code HttpURLConnection}: finding the handler of an {@code http:} URL looks for
   * providers in every jar on the class path, which costs a short command more than the rest of the
   * exchange.
   *
   * @return the answer; empty when the channel refused the command line, so nothing ran there
   * @throws IOException when the exchange broke off after the command line was sent
   * @throws Wire.Malformed when what came back is not an answer
   */
  private static Optional<RelayedCommand.Answer> exchange(
      Socket socket, RunFile running, byte[] command) throws IOException {
    OutputStream request = new BufferedOutputStream(socket.getOutputStream());
    String head =
        "POST "
            + PATH
            + " HTTP/1.1\r\nHost: "
            + ControlChannel.HOST
            + ":"
            + running.port()
            + "\r\n"
            + Wire.TOKEN_HEADER
            + ": "
            + running.token()
            + "\r\nContent-Type: "
            + RelayedCommand.MEDIA_TYPE
            + "\r\nContent-Length: "
            + command.length
            + "\r\nConnection: close\r\n\r\n";
    request.write(head.getBytes(StandardCharsets.US_ASCII));
    request.write(command);
    request.flush();
    DataInputStream response =
        new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    String status = line(response);
    if (!status.startsWith("HTTP/1.1 ") || status.length() < 12)
      throw new Wire.Malformed("not an HTTP answer: " + status);
    if (!status.startsWith("200", 9)) return Optional.empty();
    int length = -1;
    for (String header = line(response); !header.isEmpty(); header = line(response)) {
      if (header.regionMatches(true, 0, "Content-Length:", 0, 15))
        length = length(header.substring(15).strip());
    }
    if (length < 0) throw new Wire.Malformed("the answer states no Content-Length");
    if (length > ControlChannel.MAX_BODY)
      throw new Wire.Malformed(
          "the answer is " + length + " bytes, more than " + ControlChannel.MAX_BODY);
    byte[] body = new byte[length];
    response.readFully(body);
    return Optional.of(RelayedCommand.Answer.read(body));
  }

  private static int length(String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new Wire.Malformed("the answer's Content-Length is " + value);
    }
  }

  /** One line of the answer's head, without its CRLF; at most {@value #MAX_LINE} characters. */
  private static String line(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) throw new java.io.EOFException("the answer ends inside its head");
      if (line.length() == MAX_LINE)
        throw new Wire.Malformed("a line of the answer's head is longer than " + MAX_LINE);
      if (c != '\r') line.append((char) c);
    }
    return line.toString();
  }

  /** What is said when an exchange with the running context broke off after the call was sent. */
  static String brokeOff(long pid, String what, Exception e) {
    return "toa: the running context (pid "
        + pid
        + ") broke off "
        + what
        + " ("
        + e
        + "); it may or may not have run: observe the record before calling again";
  }
}
