package io.toa4j.cli;

import io.toa4j.runtime.ParkedFilter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * The filters of parked messages that {@code toa parked}, {@code toa replay} and {@code toa
 * discard} take.
 */
final class ParkedFilters {
  private static final Pattern AGO = Pattern.compile("(\\d+)([smhd])");

  @Option(
      names = "--component",
      paramLabel = "NAMESPACE.NAME",
      description = "Only messages delivered to this component.")
  String component;

  @Option(
      names = "--operation",
      paramLabel = "OPERATION",
      description =
          "Only messages delivered to this operation: its name, or namespace.name.operation.")
  String operation;

  @Option(
      names = "--code",
      paramLabel = "CODE",
      description = "Only messages that failed with this code, such as CONTRACT.")
  String code;

  @Option(
      names = "--since",
      paramLabel = "WHEN",
      description =
          "Only messages parked since then: an instant (2026-12-03T10:00:00Z) or a time ago (30m, 2h, 1d).")
  String since;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description =
          "At most this many, oldest first (1 to " + ParkedFilter.MOST + "; default: all).")
  Integer limit;

  /** Whether any filter was given. */
  boolean given() {
    return component != null || operation != null || code != null || since != null || limit != null;
  }

  /** The filter the options describe: every message when none was given. */
  ParkedFilter filter(Clock clock) {
    int most = limit == null ? ParkedFilter.MOST : limit;
    if (most < 1 || most > ParkedFilter.MOST)
      throw new CliProblem(
          "toa: --limit is from 1 to " + ParkedFilter.MOST + "; got " + most, Toa.USAGE);
    return new ParkedFilter(
        Optional.ofNullable(component),
        Optional.ofNullable(operation),
        Optional.ofNullable(code),
        Optional.ofNullable(since).map(s -> instant(s, clock)),
        most);
  }

  /** An instant, or a time ago from now. */
  static Instant instant(String when, Clock clock) {
    Matcher ago = AGO.matcher(when);
    if (ago.matches()) {
      long n = Long.parseLong(ago.group(1));
      Duration back =
          switch (ago.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
      return clock.instant().minus(back);
    }
    try {
      return Instant.parse(when);
    } catch (DateTimeParseException e) {
      throw new CliProblem(
          "toa: --since takes an instant such as 2026-12-03T10:00:00Z or a time ago such as 30m, 2h or 1d; got "
              + when,
          Toa.USAGE);
    }
  }
}
