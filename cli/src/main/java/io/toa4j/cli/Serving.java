package io.toa4j.cli;

import io.toa4j.http.Gateway;
import io.toa4j.runtime.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A context served by {@code toa run}: the booted application, its control channel, and the {@code
 * .toa/run.json} that points {@code toa call} at the channel.
 *
 * <p>Started in that order and closed in the reverse one, so run.json never names a channel that is
 * not yet up, and a call that arrives while stopping either reaches a live application or finds no
 * channel and runs in-process. Closing is idempotent.
 *
 * <p>On a distributed bus there is neither channel nor run.json: any number of processes serve the
 * context, each hosting the components it was given, and {@code toa call} reaches them over the
 * bus.
 */
final class Serving implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Serving.class);

  private final io.toa4j.runtime.Toa application;
  private final Optional<Gateway> gateway;
  private final Optional<ControlChannel> channel;
  private final Optional<RunFile> run;
  private final Path file;
  private boolean closed;

  private Serving(
      io.toa4j.runtime.Toa application,
      Optional<Gateway> gateway,
      Optional<ControlChannel> channel,
      Optional<RunFile> run,
      Path file) {
    this.application = application;
    this.gateway = gateway;
    this.channel = channel;
    this.run = run;
    this.file = file;
  }

  /**
   * Boots the context, serves its routes over HTTP when any component declares an exposition, and
   * opens its channel.
   *
   * @param http where the HTTP gateway listens
   * @param startupWait how long to wait for a storage or bus server that cannot be reached yet
   * @param components the labels of the components to host; all when empty
   * @throws CliProblem when a live process already serves the context
   */
  static Serving start(
      Path context,
      RandomGenerator random,
      InetSocketAddress http,
      Duration startupWait,
      java.util.List<String> components) {
    Path file = RunFile.path(context);
    RunFile.read(file)
        .filter(RunFile::alive)
        .ifPresent(
            other -> {
              throw new CliProblem(
                  "toa: pid "
                      + other.pid()
                      + " already serves the context in "
                      + context
                      + "; call it with toa call, or stop that process first",
                  Toa.FAILED);
            });
    io.toa4j.runtime.Toa application =
        io.toa4j.runtime.Toa.builder()
            .directory(context)
            .options(Options.defaults().withStartupWait(startupWait))
            .host(components)
            .meterRegistry(
                Gateway.metricsRegistry()) // before the boot, so /.toa/metrics counts what recovery
            // delivers
            .build();
    Optional<Gateway> gateway = Optional.empty();
    try {
      if (application.context().components().stream().anyMatch(c -> c.exposition().isPresent())) {
        gateway = Optional.of(startGateway(application, http));
      }
      if (application.distributed())
        return new Serving(application, gateway, Optional.empty(), Optional.empty(), file);
      String token = token(random);
      ControlChannel channel = ControlChannel.start(Caller.of(application), token, context);
      RunFile run = new RunFile(ProcessHandle.current().pid(), channel.port(), token);
      try {
        run.write(file);
      } catch (RuntimeException e) {
        channel.close();
        throw e;
      }
      return new Serving(application, gateway, Optional.of(channel), Optional.of(run), file);
    } catch (IOException e) {
      gateway.ifPresent(Gateway::close);
      application.close();
      throw new UncheckedIOException(
          "Cannot open the control channel on " + ControlChannel.HOST, e);
    } catch (RuntimeException e) {
      gateway.ifPresent(Gateway::close);
      application.close();
      throw e;
    }
  }

  /** The gateway on the address, or a problem that names the address and the way out. */
  private static Gateway startGateway(io.toa4j.runtime.Toa application, InetSocketAddress http) {
    try {
      return Gateway.start(application, http, Gateway.DEFAULT_MAX_BODY);
    } catch (UncheckedIOException e) {
      String what = e.getMessage(); // "The HTTP gateway cannot listen on <address>: <reason>"
      throw new CliProblem(
          "toa: "
              + Character.toLowerCase(what.charAt(0))
              + what.substring(1)
              + ". Another process holds the address (another toa run?): stop it, or give this one"
              + " another with --http HOST:PORT (--http 127.0.0.1:0 picks a free port)",
          Toa.FAILED);
    }
  }

  /** The process serving the context and the channel's port; empty on a distributed bus. */
  Optional<RunFile> run() {
    return run;
  }

  /** The components this process hosts. */
  java.util.Set<String> hosted() {
    return application.hosted();
  }

  /** The file that points {@code toa call} here. */
  Path file() {
    return file;
  }

  /** The context's name, as declared. */
  String name() {
    return application.context().name();
  }

  private static String token(RandomGenerator random) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    try {
      run.ifPresent(r -> r.deleteFrom(file));
    } catch (UncheckedIOException e) {
      LOG.warn("{}", e.getMessage());
    }
    channel.ifPresent(ControlChannel::close);
    gateway.ifPresent(Gateway::close);
    application.close();
  }
}
