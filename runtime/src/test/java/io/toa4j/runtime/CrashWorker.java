package io.toa4j.runtime;

import io.toa4j.api.Request;
import java.nio.file.Path;
import java.util.Map;

/**
 * A process for {@link CrashSafetyTest}: boots the context and records sources from a given number
 * on, printing each number once its call answered, until it is killed.
 */
public final class CrashWorker {
  private CrashWorker() {}

  public static void main(String[] args) {
    Path context = Path.of(args[0]);
    long next = Long.parseLong(args[1]);
    Toa app = Toa.builder().directory(context).build();
    System.out.println("ready");
    System.out.flush();
    while (true) {
      app.call("test.sources.emit", Request.of(id(next), Map.of("failures", 0, "refuse", false)));
      System.out.println("committed " + next);
      System.out.flush();
      next++;
    }
  }

  static String id(long n) {
    return String.format("%032x", n);
  }
}
