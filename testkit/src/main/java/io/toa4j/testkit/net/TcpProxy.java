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
 * A TCP forwarder on a loopback port to a real server, for tests that need the server to be out
 * of reach and then to come up, or to lose its connections, without stopping the server itself:
 * nothing listens on the port until {@link #start}, and {@link #cut} drops every connection at once.
 */
public final class TcpProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger accepted = new AtomicInteger();

  private TcpProxy(ServerSocket listener, InetSocketAddress target) {
    this.listener = listener;
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

  /** Listens on the loopback {@code port} and forwards each connection to {@code host:targetPort}. */
  public static TcpProxy start(int port, String host, int targetPort) {
    ServerSocket listener;
    try {
      listener = new ServerSocket();
      listener.setReuseAddress(true);
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot listen on loopback port " + port, e);
    }
    TcpProxy proxy = new TcpProxy(listener, new InetSocketAddress(host, targetPort));
    daemon("tcp-proxy-" + port, proxy::accept).start();
    return proxy;
  }

  /** How many connections it has taken since it started. */
  public int accepted() {
    return accepted.get();
  }

  /** Drops every connection it carries now, as a network failure would; it goes on accepting. */
  public void cut() {
    for (Socket s : open) closeQuietly(s);
    open.clear();
  }

  @Override
  public void close() {
    closeQuietly(listener);
    cut();
  }

  private void accept() {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      accepted.incrementAndGet();
      Socket server = new Socket();
      try {
        server.connect(target, 5_000);
      } catch (IOException e) {
        closeQuietly(client);
        closeQuietly(server);
        continue;
      }
      open.add(client);
      open.add(server);
      daemon("tcp-proxy-up", () -> pump(client, server)).start();
      daemon("tcp-proxy-down", () -> pump(server, client)).start();
    }
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side went away: the other goes too
    } finally {
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
