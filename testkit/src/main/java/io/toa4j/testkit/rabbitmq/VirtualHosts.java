package io.toa4j.testkit.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Virtual hosts of the tests' RabbitMQ ({@link Server#RABBITMQ}), one per test, made and removed
 * with rabbitmqctl; and the broker's restart, for the tests that restart it; and any other
 * rabbitmqctl command. rabbitmqctl controls the broker on this machine only: the tests that use
 * this need {@link Server#RABBITMQ_CONTROL}, and are not run when the broker is elsewhere.
 */
public final class VirtualHosts {
  private VirtualHosts() {}

  /** A name no other test uses, fit for a database and a virtual host: toa_ and 16 hex digits. */
  public static String freshName() {
    return "toa_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  /** A virtual host the guest user may use entirely. */
  public static void create(String name) throws IOException, InterruptedException {
    rabbitmqctl("add_vhost", name);
    rabbitmqctl("set_permissions", "-p", name, "guest", ".*", ".*", ".*");
  }

  public static void delete(String name) throws IOException, InterruptedException {
    rabbitmqctl("delete_vhost", name);
  }

  /**
   * Restarts the broker's application — every connection closed, queues and persistent messages
   * kept on disk — and waits until it listens again.
   */
  public static void restartBroker() throws IOException, InterruptedException {
    rabbitmqctl("stop_app");
    rabbitmqctl("start_app");
    rabbitmqctl("await_startup");
  }

  /**
   * Runs rabbitmqctl with these arguments, asserting it ends well, and returns what it printed.
   *
   * @throws IllegalStateException when the tests' broker is not on this machine
   */
  public static String rabbitmqctl(String... args) throws IOException, InterruptedException {
    if (!Server.RABBITMQ.local()) {
      throw new IllegalStateException(
          "rabbitmqctl controls only a broker on this machine, and the tests' RabbitMQ is at "
              + Server.RABBITMQ.host()
              + ":"
              + Server.RABBITMQ.port()
              + ": a test that runs it needs @Needs(Server.RABBITMQ_CONTROL)");
    }
    String[] command = new String[args.length + 1];
    command[0] = "rabbitmqctl";
    System.arraycopy(args, 0, command, 1, args.length);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("rabbitmqctl %s ended", args[0]).isTrue();
    assertThat(p.exitValue()).as("rabbitmqctl %s: %s", String.join(" ", args), out).isZero();
    return out;
  }
}
