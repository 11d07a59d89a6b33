package io.toa4j.manifest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The keys of Toa's {@code context.toa.yaml} that toa4j does not read, each with what toa4j has in
 * its place or that it has nothing (see docs/manifest.md, "Context files"). A context written for
 * Toa is refused at the first such key, with that equivalent, rather than as an unknown key.
 */
final class ToaContextKeys {
  private static final String NONE = "there is none in toa4j";
  private static final String ENGINES_BY_ENVIRONMENT =
      "the environment variables TOA_STORAGE,"
          + " TOA_STORAGE_URL, TOA_BUS and TOA_BUS_URL, which override the engines this file names,"
          + " or a context folder per environment";

  private static final Map<String, String> EQUIVALENTS = new LinkedHashMap<>();

  static {
    EQUIVALENTS.put(
        "packages",
        "where the components are is written components: here, a list"
            + " of glob patterns of component folders, such as components: [components/*] (the"
            + " default)");
    EQUIVALENTS.put(
        "registry",
        "toa4j builds and pushes no images: a context runs as a Java"
            + " program (toa run, or Toa.builder() in a program of your own); "
            + NONE);
    EQUIVALENTS.put("runtime", "the runtime is the toa4j version the program depends on; " + NONE);
    EQUIVALENTS.put(
        "compositions",
        "which components share a process is chosen when the"
            + " process starts: toa run <component>... on a bus that processes share, or"
            + " Toa.builder().host(...) in code");
    EQUIVALENTS.put(
        "amqp",
        "write bus: { engine: rabbitmq, url: amqp://<host>:5672 }, or set"
            + " TOA_BUS=rabbitmq and TOA_BUS_URL");
    EQUIVALENTS.put(
        "mongodb",
        "toa4j has no MongoDB storage; name one of its storages: storage:"
            + " { engine: postgres, url: jdbc:postgresql://<host>:5432/<db> }, or set TOA_STORAGE and"
            + " TOA_STORAGE_URL (storage: sqlite is the default)");
    EQUIVALENTS.put(
        "sql",
        "write storage: { engine: postgres, url:"
            + " jdbc:postgresql://<host>:5432/<db> }, or set TOA_STORAGE=postgres and TOA_STORAGE_URL");
    EQUIVALENTS.put(
        "storages",
        "toa4j keeps no BLOBs (storage: is where the components' entities" + " are kept); " + NONE);
    EQUIVALENTS.put("stash", "a shared cache; " + NONE);
    EQUIVALENTS.put(
        "atomicity",
        "Redis for locks, meters and slots; toa4j's outbox claims its"
            + " entries in the storage and needs no Redis; "
            + NONE);
    EQUIVALENTS.put(
        "addressed",
        "addressed calls; every call goes to any process hosting the" + " component; " + NONE);
    EQUIVALENTS.put("cadence", "pulses and delays; " + NONE);
    EQUIVALENTS.put(
        "events",
        "the events some receiver of the context consumes are published,"
            + " and Toa.builder().announceAll() publishes every event; there is no key for consumers"
            + " outside the context");
    EQUIVALENTS.put(
        "exposition",
        "toa run --http <host>:<port> (or GatewaySettings in code) says"
            + " where the HTTP gateway listens, and each component's manifest declares its routes"
            + " under exposition:");
    EQUIVALENTS.put(
        "identity",
        "identities are kept in the context's storage and managed with"
            + " toa identity; the token key is TOA_TOKEN_SECRET or TOA_TOKEN_SECRET_FILE");
    EQUIVALENTS.put("origins", "governed outbound HTTP; " + NONE);
    EQUIVALENTS.put("fetch", EQUIVALENTS.get("origins"));
    EQUIVALENTS.put("realtime", "realtime streams; " + NONE);
    EQUIVALENTS.put(
        "introspection",
        "halts and introspection; "
            + NONE
            + " (the gateway answers"
            + " GET /.toa/health and GET /.toa/metrics)");
    EQUIVALENTS.put(
        "telemetry",
        "the runtime's meters go to the registry given to"
            + " Toa.builder().meterRegistry(...) and are served at GET /.toa/metrics");
    EQUIVALENTS.put("http", "addresses of streamed calls; every call goes over the bus; " + NONE);
    EQUIVALENTS.put("ingress", "toa4j deploys nothing; " + NONE);
    EQUIVALENTS.put("convergence", "regions; " + NONE);
    EQUIVALENTS.put(
        "annotations",
        "toa4j's settings are the keys of this file, " + String.join(", ", ContextReader.KEYS));
  }

  private ToaContextKeys() {}

  /**
   * Why {@code key}, a key Toa reads at the top of its context file, is not read here; empty when
   * Toa has no such key either. The long form of an extension's settings ({@code
   * '@toa.io/bindings.amqp'}) is answered as its short form ({@code amqp}).
   */
  static Optional<String> refusal(String key, String line) {
    if (key.startsWith("@toa.io/")) {
      String shortKey = key.substring(key.lastIndexOf('.') + 1);
      String equivalent = EQUIVALENTS.getOrDefault(shortKey, NONE);
      return Optional.of(
          "Toa's extension settings '" + key + "' are not read" + line + ": " + equivalent);
    }
    return Optional.ofNullable(EQUIVALENTS.get(key))
        .map(equivalent -> "Toa's '" + key + "' is not read" + line + ": " + equivalent);
  }

  /**
   * The refusal of a per-environment variant, such as {@code storage@staging}: toa4j's context file
   * has one value per key.
   */
  static String variant(String key, String line) {
    String base = key.substring(0, key.indexOf('@'));
    String env = key.substring(key.indexOf('@') + 1);
    return "Toa's per-environment variant '"
        + key
        + "' ("
        + base
        + " in the environment "
        + env
        + ") is not read"
        + line
        + ": a toa4j context file has one value for each key; vary the"
        + " engines with "
        + ENGINES_BY_ENVIRONMENT;
  }

  /** Whether {@code key} is written as a per-environment variant, {@code key@env}. */
  static boolean isVariant(String key) {
    int at = key.indexOf('@');
    return at > 0 && at < key.length() - 1;
  }
}
