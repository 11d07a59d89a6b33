package io.toa4j.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A virtual host of its own on the local RabbitMQ for one benchmark run, made and dropped with
 * {@code rabbitmqctl}, so that what a run declares leaves nothing on the broker.
 */
final class Broker {
  private Broker() {}

  /** Creates the virtual host {@code name}, open to {@code guest}. */
  static void createVirtualHost(String name) throws IOException, InterruptedException {
    rabbitmqctl("add_vhost", name);
    rabbitmqctl("set_permissions", "-p", name, "guest", ".*", ".*", ".*");
  }

  /** Deletes the virtual host {@code name} with its queues and exchanges. */
  static void deleteVirtualHost(String name) throws IOException, InterruptedException {
    rabbitmqctl("delete_vhost", name);
  }

  private static void rabbitmqctl(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("rabbitmqctl"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("rabbitmqctl " + String.join(" ", args) + " failed: " + out);
    }
  }
}
