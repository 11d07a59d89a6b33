package io.toa4j.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** What the benchmarks share: reading their arguments and summarising what they measured. */
final class Figures {
  private Figures() {}

  static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    return sorted.get(sorted.size() / 2);
  }

  /** The value below which the fraction {@code q} of the sorted values lie (nearest rank). */
  static long percentile(long[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  static long[] sorted(long[] values) {
    long[] copy = values.clone();
    Arrays.sort(copy);
    return copy;
  }

  /**
   * The CPU time this JVM has used, all its threads (the JIT compiler's and the collector's too).
   */
  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** The CPU time the calling thread has spent, user and system. */
  static long threadCpuNanos() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  /**
   * The CPU time the whole machine has spent busy (every process, the database's and the broker's
   * too), from {@code /proc/stat}; -1 where there is none. Ticks of 10 ms, so only for whole
   * rounds.
   */
  static long machineCpuNanos() {
    try {
      String[] f =
          java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat"))
              .get(0)
              .trim()
              .split("\\s+");
      long busy = 0;
      for (int i = 1; i < f.length && i <= 8; i++)
        if (i != 4 && i != 5) busy += Long.parseLong(f[i]); // not idle, not iowait
      return busy * 10_000_000L; // USER_HZ is 100 on Linux
    } catch (java.io.IOException | RuntimeException e) {
      return -1;
    }
  }

  static int intArg(String[] args, String name, int fallback) {
    for (int i = 0; i + 1 < args.length; i++)
      if (args[i].equals(name)) return Integer.parseInt(args[i + 1]);
    return fallback;
  }

  /** Whether the flag {@code name} (an option without a value) is among the arguments. */
  static boolean flag(String[] args, String name) {
    return Arrays.asList(args).contains(name);
  }

  static String stringArg(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) if (args[i].equals(name)) return args[i + 1];
    return fallback;
  }
}
