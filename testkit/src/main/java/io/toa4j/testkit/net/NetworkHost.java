package io.toa4j.testkit.net;

import io.toa4j.testkit.os.Commands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A host of a test's own on this machine, whose link to the test's process can be dropped for real:
 * a network namespace reached from this one through a second namespace that routes between them.
 * {@link #drop} stops the routing: packets vanish both ways, with no RST and no ICMP, as behind a
 * failed switch; open connections stay open at both ends, their kernels retransmit and probe into
 * nothing, and new connections time out. {@link #restore} routes again, and connections still open
 * carry on. Unlike {@link TcpProxy#silence}, nothing between the two ends answers for the other:
 * TCP keepalives and {@code TCP_USER_TIMEOUT} meet a peer that is really gone.
 *
 * <p>Needs root and iproute2 ({@code @Needs(Server.NETWORK_NAMESPACES)}). The namespaces and
 * interfaces are named {@value #PREFIX} and five random hex digits (interface names are at most 15
 * characters); the addresses are a random /29 of 10.247.0.0/16, never used off this machine. {@link
 * #close} removes them all. Not thread-safe: one test drives it.
 *
 * <pre>
 *   this namespace  .1 ---- .2  router namespace  .5 ---- .6  host namespace
 *   (the test)       veth a/b   (forwards, or not)      veth c/d   ({@link #address})
 * </pre>
 */
public final class NetworkHost implements AutoCloseable {
  static final String PREFIX = "tp";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String name;
  private final String subnet;

  private NetworkHost(String name, String subnet) {
    this.name = name;
    this.subnet = subnet;
  }

  /** Makes the namespaces, their links and routes; fails saying which command failed. */
  public static NetworkHost create() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    String name = PREFIX + String.format("%05x", random.nextInt(0x100000));
    String subnet = "10.247." + random.nextInt(256) + "." + 8 * random.nextInt(32);
    NetworkHost host = new NetworkHost(name, subnet);
    try {
      host.build();
      return host;
    } catch (RuntimeException e) {
      host.close();
      throw e;
    }
  }

  private void build() {
    String router = router();
    String hosting = namespace();
    run("ip", "netns", "add", router);
    run("ip", "netns", "add", hosting);
    run("ip", "link", "add", name + "a", "type", "veth", "peer", "name", name + "b");
    run("ip", "link", "set", name + "b", "netns", router);
    run("ip", "link", "add", name + "c", "type", "veth", "peer", "name", name + "d");
    run("ip", "link", "set", name + "c", "netns", router);
    run("ip", "link", "set", name + "d", "netns", hosting);
    run("ip", "addr", "add", at(1) + "/30", "dev", name + "a");
    run("ip", "link", "set", name + "a", "up");
    run(in(router, "ip", "addr", "add", at(2) + "/30", "dev", name + "b"));
    run(in(router, "ip", "addr", "add", at(5) + "/30", "dev", name + "c"));
    run(in(router, "ip", "link", "set", name + "b", "up"));
    run(in(router, "ip", "link", "set", name + "c", "up"));
    run(in(hosting, "ip", "addr", "add", at(6) + "/30", "dev", name + "d"));
    run(in(hosting, "ip", "link", "set", name + "d", "up"));
    run(in(hosting, "ip", "link", "set", "lo", "up"));
    run(in(hosting, "ip", "route", "add", "default", "via", at(5)));
    run("ip", "route", "add", at(4) + "/30", "via", at(2));
    restore();
  }

  /** The host's address, where its servers listen and this process connects. */
  public String address() {
    return at(6);
  }

  /** The address this process's connections come from, as the host sees them. */
  public String peer() {
    return at(1);
  }

  /** The host's network namespace, for {@code ip netns exec}. */
  public String namespace() {
    return name + "-host";
  }

  /** The command, to be run in the host's namespace. */
  public List<String> command(List<String> command) {
    return in(namespace(), command.toArray(String[]::new));
  }

  /**
   * Runs the command in the host's namespace, where the link does not matter, within 30 s.
   *
   * @return what it printed, standard error included
   * @throws IllegalStateException when it fails or does not finish, with what it printed
   */
  public String exec(String... command) {
    return run(command(List.of(command)));
  }

  /** Drops the link: the router forwards nothing more, silently, until {@link #restore}. */
  public void drop() {
    run(in(router(), "sysctl", "-qw", "net.ipv4.ip_forward=0"));
  }

  /** Routes again after {@link #drop}. */
  public void restore() {
    run(in(router(), "sysctl", "-qw", "net.ipv4.ip_forward=1"));
  }

  /** Removes the namespaces, and with them their interfaces and the route to the host. */
  @Override
  public void close() {
    for (List<String> command :
        List.of(
            List.of("ip", "netns", "del", namespace()),
            List.of("ip", "netns", "del", router()),
            List.of(
                "ip",
                "link",
                "del",
                name + "a"))) { // gone with the router's namespace, unless never moved there
      try {
        run(command);
      } catch (RuntimeException e) {
        // never made, or gone already: nothing is left to remove
      }
    }
  }

  private String router() {
    return name + "-link";
  }

  private String at(int host) {
    String[] parts = subnet.split("\\.");
    return parts[0] + "." + parts[1] + "." + parts[2] + "." + (Integer.parseInt(parts[3]) + host);
  }

  private static List<String> in(String namespace, String... command) {
    List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
    all.addAll(List.of(command));
    return all;
  }

  private static void run(String... command) {
    run(List.of(command));
  }

  private static String run(List<String> command) {
    return Commands.run(command, TIMEOUT, "is iproute2 installed?");
  }
}
