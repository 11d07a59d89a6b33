package io.toa4j.testkit.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Virtual hosts of the local RabbitMQ, one per test, made and removed with rabbitmqctl; and the
 * broker's restart, for the tests that restart it; and any other rabbitmqctl command.
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

  /** Runs rabbitmqctl with these arguments, asserting it ends well, and returns what it printed. */
  public static String rabbitmqctl(String... args) throws IOException, InterruptedException {
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
