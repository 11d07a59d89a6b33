package io.toa4j.runtime;

import io.toa4j.api.Request;
import java.nio.file.Path;
import java.util.Map;

/**
 * A process for {@link ParkedCrashTest}: boots the context and places orders of a negative amount
 * from a given number on (each parks one message in each of two receivers), printing each number
 * once its call answered, until it is killed.
 */
public final class ParkingWorker {
  private ParkingWorker() {}

  public static void main(String[] args) {
    Toa app = Toa.builder().directory(Path.of(args[0])).build();
    System.out.println("ready");
    System.out.flush();
    for (long next = Long.parseLong(args[1]); ; next++) {
      app.call(
          "test.orders.place", Request.of(String.format("%032x", next), Map.of("amount", -next)));
      System.out.println("placed " + next);
      System.out.flush();
    }
  }
}
