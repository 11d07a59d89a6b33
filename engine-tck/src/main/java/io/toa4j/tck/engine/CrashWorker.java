package io.toa4j.tck.engine;

import io.toa4j.api.Request;
import io.toa4j.runtime.Options;
import io.toa4j.runtime.Toa;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process {@link CrashSafetyContract} kills: boots the context on the engines its arguments
 * name and records sources from a given number on, printing each number once its call answered,
 * until it is killed.
 *
 * <p>Arguments: the context's folder, the first number, the storage's name, the bus's name, then
 * each option as {@code storage.<key>=<value>} or {@code bus.<key>=<value>}.
 */
public final class CrashWorker {
  private CrashWorker() {}

  /** Runs until killed. */
  public static void main(String[] args) {
    Path context = Path.of(args[0]);
    long next = Long.parseLong(args[1]);
    Map<String, String> storageOptions = new LinkedHashMap<>();
    Map<String, String> busOptions = new LinkedHashMap<>();
    for (int i = 4; i < args.length; i++) {
      int equals = args[i].indexOf('=');
      String key = args[i].substring(0, equals);
      String value = args[i].substring(equals + 1);
      if (key.startsWith("storage.")) storageOptions.put(key.substring(8), value);
      else if (key.startsWith("bus.")) busOptions.put(key.substring(4), value);
      else throw new IllegalArgumentException("not an engine's option: " + args[i]);
    }
    Engines engines = new Engines(args[2], storageOptions, args[3], busOptions);
    Toa app = engines.builder(context, Options.defaults()).build();
    System.out.println("ready");
    System.out.flush();
    while (true) {
      app.call(
          "test.sources.emit",
          Request.of(String.format("%032x", next), Map.of("failures", 0, "refuse", false)));
      System.out.println("committed " + next);
      System.out.flush();
      next++;
    }
  }

  /** The arguments after the first two that name these engines. */
  static List<String> arguments(Engines engines) {
    List<String> arguments = new ArrayList<>(List.of(engines.storage(), engines.bus()));
    engines.storageOptions().forEach((k, v) -> arguments.add("storage." + k + "=" + v));
    engines.busOptions().forEach((k, v) -> arguments.add("bus." + k + "=" + v));
    return arguments;
  }
}
