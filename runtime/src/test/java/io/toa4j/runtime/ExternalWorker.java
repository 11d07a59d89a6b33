package io.toa4j.runtime;

import io.toa4j.api.Request;
import java.nio.file.Path;
import java.util.Map;

/**
 * A process for {@link ExternalTest}: boots the context (its {@code charge} hangs after calling the
 * provider, by the system property the test sets) and, when told to, places an order whose task is
 * the charge; then waits to be killed.
 */
public final class ExternalWorker {
  private ExternalWorker() {}

  public static void main(String[] args) throws InterruptedException {
    Toa app = Toa.builder().directory(Path.of(args[0])).build();
    if (args.length > 1) app.call("test.payments.order", Request.input(Map.of("order", args[1])));
    System.out.println("ready");
    System.out.flush();
    Thread.currentThread().join();
  }
}
