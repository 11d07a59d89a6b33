package io.toa4j.testkit.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP forwarder on a loopback port to a real server, for tests that need the server to be out of
 * reach and then to come up, or to lose its connections, without stopping the server itself:
 * nothing listens on the port until {@link #start}, {@link #cut} drops every connection at once,
 * and {@link #down} makes the server unreachable (connections cut, new ones refused) until {@link
 * #up}.
 *
 * <p>{@link #silence} is a dropped link rather than a closed one: every socket stays open and
 * nothing is forwarded either way, no byte, no FIN, no RST, as both ends see a network that stopped
 * carrying packets. A connection opened meanwhile is accepted and held, not yet connected to the
 * server. {@link #heal} lets everything through again: what was held back is delivered, and an end
 * that closed its socket meanwhile (a heartbeat or a timeout gave up) has its close carried to the
 * other end only then, as a real link delivers it once it is back.
 */
public final class TcpProxy implements AutoCloseable {
  private final int port;
  private volatile ServerSocket listener;
  private final InetSocketAddress target;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger accepted = new AtomicInteger();

  /** Guards {@link #silenced}; pumps and held connections wait on it while the link is dropped. */
  private final Object link = new Object();

  private boolean silenced; // guarded by link

  private TcpProxy(int port, InetSocketAddress target) {
    this.port = port;
    this.target = target;
  }

  /** A loopback port nothing listens on now (another program may take it later; rarely does). */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free loopback port", e);
    }
  }

  /**
   * Listens on the loopback {@code port} and forwards each connection to {@code host:targetPort}.
   */
  public static TcpProxy start(int port, String host, int targetPort) {
    TcpProxy proxy = new TcpProxy(port, new InetSocketAddress(host, targetPort));
    proxy.up();
    return proxy;
  }

  /** Listens again after {@link #down}. */
  public synchronized void up() {
    ServerSocket listening;
    try {
      listening = new ServerSocket();
      listening.setReuseAddress(true);
      listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot listen on loopback port " + port, e);
    }
    listener = listening;
    daemon("tcp-proxy-" + port, () -> accept(listening)).start();
  }

  /** Cuts every connection and refuses new ones until {@link #up}, as a server that went away. */
  public synchronized void down() {
    closeQuietly(listener);
    cut();
  }

  /** How many connections it has taken since it started. */
  public int accepted() {
    return accepted.get();
  }

  /** Drops every connection it carries now, as a network failure would; it goes on accepting. */
  public void cut() {
    for (Socket s : open) closeQuietly(s);
    open.clear();
    synchronized (link) {
      link.notifyAll(); // a pump waiting out a silence finds its socket closed
    }
  }

  /**
   * Stops forwarding, as a dropped link: connections stay open at both ends and carry nothing, new
   * ones are accepted and held, until {@link #heal}. Neither end is told anything.
   */
  public void silence() {
    synchronized (link) {
      silenced = true;
    }
  }

  /** Forwards again after {@link #silence}: held bytes, held connections and closes go through. */
  public void heal() {
    synchronized (link) {
      silenced = false;
      link.notifyAll();
    }
  }

  /**
   * Waits while the link is silenced and the socket is open; false when the socket was closed
   * meanwhile ({@link #cut}, {@link #down}), so the caller stops.
   */
  private boolean passes(Socket socket) {
    synchronized (link) {
      while (silenced && !socket.isClosed()) {
        try {
          link.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return !socket.isClosed();
    }
  }

  @Override
  public void close() {
    down();
  }

  private void accept(ServerSocket listening) {
    while (!listening.isClosed()) {
      Socket client;
      try {
        client = listening.accept();
      } catch (IOException e) {
        return; // closed
      }
      accepted.incrementAndGet();
      open.add(client);
      daemon("tcp-proxy-open", () -> connect(client, listening)).start();
    }
  }

  /**
   * Connects the accepted client to the server, once the link carries packets, and pumps both ways.
   */
  private void connect(Socket client, ServerSocket listening) {
    if (!passes(client)) {
      open.remove(client);
      return;
    }
    Socket server = new Socket();
    try {
      server.connect(target, 5_000);
    } catch (IOException e) {
      closeQuietly(client);
      closeQuietly(server);
      open.remove(client);
      return;
    }
    open.add(server);
    if (listening.isClosed() || client.isClosed()) {
      // down() came while this one was being connected, and cut what was open before it was
      // added: it is cut here, or it would carry traffic through the whole outage
      for (Socket s : new Socket[] {client, server}) {
        closeQuietly(s);
        open.remove(s);
      }
      return;
    }
    daemon("tcp-proxy-up", () -> pump(client, server)).start();
    daemon("tcp-proxy-down", () -> pump(server, client)).start();
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      for (int n; (n = in.read(buffer)) >= 0 && passes(to); ) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side went away: the other goes too
    } finally {
      passes(to); // a close made while the link is dropped reaches the other end once it is back
      closeQuietly(from);
      closeQuietly(to);
      open.remove(from);
      open.remove(to);
    }
  }

  private static Thread daemon(String name, Runnable work) {
    Thread t = new Thread(work, name);
    t.setDaemon(true);
    return t;
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing: nothing left to protect
    }
  }
}
