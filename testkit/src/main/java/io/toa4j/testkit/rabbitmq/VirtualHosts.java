package io.toa4j.testkit.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.testkit.servers.Server;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Virtual hosts of the tests' RabbitMQ ({@link Server#RABBITMQ}), one per test, made and removed
 * with rabbitmqctl; and the broker's restart, for the tests that restart it; and any other
 * rabbitmqctl command. rabbitmqctl controls the broker on this machine only: the tests that use
 * this need {@link Server#RABBITMQ_CONTROL}, and are not run when the broker is elsewhere.
 *
 * <p>Each rabbitmqctl command starts an Erlang VM of its own, about half a second, so a test that
 * made and removed its virtual host with three commands waited about two seconds for them. {@link
 * #take()} and {@link #release(String)} make and remove them {@value #BATCH} at a time, in one
 * {@code rabbitmqctl eval} each (the broker's {@code rabbit_vhost:add/2}, {@code
 * rabbit_auth_backend_internal:set_permissions/6} and {@code rabbit_vhost:delete/2}, as RabbitMQ
 * 3.8 and later have them); where an eval fails, one command per virtual host as {@link
 * #create(String)} and {@link #delete(String)} do. What is still made or released when the JVM ends
 * is removed then.
 */
public final class VirtualHosts {
  /** How many virtual hosts one eval makes or removes. */
  static final int BATCH = 8;

  private static final String ACTING_USER = "<<\"toa-tests\">>";

  /** Made and not yet taken. */
  private static final Deque<String> made = new ArrayDeque<>();

  /** Released and not yet removed. */
  private static final List<String> released = new ArrayList<>();

  private static boolean evalFails;
  private static boolean removedAtExit;

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
   * A virtual host of the caller's own, with a fresh name, made already, that the guest user may
   * use entirely; give it back with {@link #release(String)}.
   */
  public static synchronized String take() throws IOException, InterruptedException {
    if (made.isEmpty()) {
      removeAtExit();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < BATCH; i++) names.add(freshName());
      if (evalFails
          || !eval(
              "lists:foreach(fun(V) -> ok = rabbit_vhost:add(V, "
                  + ACTING_USER
                  + "), ok = rabbit_auth_backend_internal:set_permissions(<<\"guest\">>, V,"
                  + " <<\".*\">>, <<\".*\">>, <<\".*\">>, "
                  + ACTING_USER
                  + ") end, "
                  + binaries(names)
                  + ").")) {
        // the eval may have made some before it failed: they are removed with the released ones
        if (!evalFails) released.addAll(names);
        evalFails = true;
        names = List.of(freshName());
        create(names.get(0));
      }
      made.addAll(names);
    }
    return made.removeFirst();
  }

  /**
   * Removes a virtual host {@link #take()} gave, its connections closed, with others in one
   * command: once {@value #BATCH} are released, or when the JVM ends.
   */
  public static synchronized void release(String name) throws IOException, InterruptedException {
    released.add(name);
    if (released.size() >= BATCH) removeReleased();
  }

  private static void removeReleased() throws IOException, InterruptedException {
    if (released.isEmpty()) return;
    if (evalFails
        || !eval(
            "lists:foreach(fun(V) -> rabbit_vhost:delete(V, "
                + ACTING_USER
                + ") end, "
                + binaries(released)
                + ").")) {
      for (String name : released) {
        if (rabbitmqctl(false, "list_vhosts", "--quiet", "--no-table-headers")
            .lines()
            .anyMatch(name::equals)) delete(name);
      }
    }
    released.clear();
  }

  private static void removeAtExit() {
    if (removedAtExit) return;
    removedAtExit = true;
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  synchronized (VirtualHosts.class) {
                    released.addAll(made);
                    made.clear();
                    try {
                      removeReleased();
                    } catch (IOException | InterruptedException | RuntimeException | Error e) {
                      System.err.println("The tests' virtual hosts were left on the broker: " + e);
                    }
                  }
                },
                "virtual-hosts-removal"));
  }

  /** An Erlang list of binaries; the names are freshName()'s: letters, digits and _ only. */
  private static String binaries(List<String> names) {
    return names.stream().map(n -> "<<\"" + n + "\">>").collect(Collectors.joining(",", "[", "]"));
  }

  /** Whether rabbitmqctl evaluated this expression to ok. */
  private static boolean eval(String expression) throws IOException, InterruptedException {
    return rabbitmqctl(false, "eval", expression).strip().endsWith("ok");
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
    return rabbitmqctl(true, args);
  }

  /** Runs rabbitmqctl; asserts that it ends, and that it ends well when {@code strict}. */
  private static String rabbitmqctl(boolean strict, String... args)
      throws IOException, InterruptedException {
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
    if (strict) {
      assertThat(p.exitValue()).as("rabbitmqctl %s: %s", String.join(" ", args), out).isZero();
    }
    return strict || p.exitValue() == 0 ? out : "";
  }
}
