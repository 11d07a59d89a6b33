package io.toa4j.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A command line relayed by {@link Relay} to the {@code toa run} serving the context, and what it
 * answers: the wire form of the control channel's second route, in java.base alone, since the
 * relaying process loads nothing else. Binary, length-prefixed UTF-8, big-endian:
 *
 * <pre>
 * POST /relay                        X-Toa-Token: the token in .toa/run.json
 *   directory  the caller's working directory (absolute), which --context and the search
 *              for context.toa.yaml start from
 *   charset    the caller's default charset, in which stdout and stderr come back
 *   ansi       whether the usage help may be coloured, as picocli would decide at the caller
 *   count, args  the command line, at most {@value #MAX_ARGS} arguments
 *
 * 200  exit code, stdout bytes, stderr bytes: what the command printed and ended with there
 * 400, 403, 404, 405, 413  { "failure": ... } as on the call route ({@link Wire}): nothing ran
 *      (not such a command line, wrong token, path, method; body too large)
 * </pre>
 *
 * <p>Nothing is read from the caller's stdin: {@code toa call} takes its request as an argument.
 *
 * @param args the arguments, as {@code main} got them
 * @param directory the caller's working directory
 * @param charset the caller's default charset
 * @param ansi whether the usage help is printed with ANSI colours
 */
record RelayedCommand(List<String> args, Path directory, Charset charset, boolean ansi) {
  /**
   * Far more than a call's command line has; a bound on what one exchange makes the channel hold.
   */
  static final int MAX_ARGS = 64;

  static final String MEDIA_TYPE = "application/octet-stream";

  RelayedCommand {
    args = List.copyOf(args);
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(charset, "charset");
  }

  /** What the command printed and how it ended. */
  record Answer(int exitCode, byte[] out, byte[] err) {
    byte[] bytes() {
      ByteArrayOutputStream body = new ByteArrayOutputStream(12 + out.length + err.length);
      try (DataOutputStream data = new DataOutputStream(body)) {
        data.writeInt(exitCode);
        writeBytes(data, out);
        writeBytes(data, err);
      } catch (IOException e) {
        throw new UncheckedIOException(e); // never: it writes to memory
      }
      return body.toByteArray();
    }

    static Answer read(byte[] body) {
      try (DataInputStream data = new DataInputStream(new ByteArrayInputStream(body))) {
        return new Answer(data.readInt(), readBytes(data), readBytes(data));
      } catch (IOException e) {
        throw new Wire.Malformed("the answer is cut short");
      }
    }
  }

  byte[] bytes() {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    try (DataOutputStream data = new DataOutputStream(body)) {
      writeText(data, directory.toString());
      writeText(data, charset.name());
      data.writeBoolean(ansi);
      data.writeInt(args.size());
      for (String arg : args) writeText(data, arg);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // never: it writes to memory
    }
    return body.toByteArray();
  }

  /**
   * Reads a relayed command line. @ when the body is not one, names a relative directory or an
   * unknown charset, or holds more than {@link #MAX_ARGS} arguments
   */
  static RelayedCommand read(byte[] body) {
    try (DataInputStream data = new DataInputStream(new ByteArrayInputStream(body))) {
      Path directory = Path.of(readText(data));
      if (!directory.isAbsolute())
        throw new Wire.Malformed("the working directory " + directory + " is not absolute");
      String charset = readText(data);
      if (!Charset.isSupported(charset))
        throw new Wire.Malformed("this process has no charset " + charset);
      boolean ansi = data.readBoolean();
      int count = data.readInt();
      if (count < 0 || count > MAX_ARGS)
        throw new Wire.Malformed(
            "a command line has at most " + MAX_ARGS + " arguments; got " + count);
      List<String> args = new ArrayList<>(count);
      for (int i = 0; i < count; i++) args.add(readText(data));
      if (data.available() > 0)
        throw new Wire.Malformed(data.available() + " bytes follow the command line");
      return new RelayedCommand(args, directory, Charset.forName(charset), ansi);
    } catch (IOException e) {
      throw new Wire.Malformed("the body is cut short");
    } catch (java.nio.file.InvalidPathException | java.nio.charset.IllegalCharsetNameException e) {
      throw new Wire.Malformed(e.getMessage());
    }
  }

  private static void writeText(DataOutputStream data, String text) throws IOException {
    writeBytes(data, text.getBytes(StandardCharsets.UTF_8));
  }

  private static void writeBytes(DataOutputStream data, byte[] bytes) throws IOException {
    data.writeInt(bytes.length);
    data.write(bytes);
  }

  private static String readText(DataInputStream data) throws IOException {
    return new String(readBytes(data), StandardCharsets.UTF_8);
  }

  /** Never more than what is left of the body, whatever length it states. */
  private static byte[] readBytes(DataInputStream data) throws IOException {
    int length = data.readInt();
    if (length < 0 || length > data.available()) throw new java.io.EOFException();
    return data.readNBytes(length);
  }
}
