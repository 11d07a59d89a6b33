package io.toa4j.http;

import io.toa4j.runtime.SystemRecords;
import io.toa4j.runtime.SystemRecords.Record;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The identities the gateway admits and their password hashes and roles, kept by the runtime in its
 * own store {@code system.identities} on the context's storage (SQLite, PostgreSQL or MariaDB
 * alike, reached through the operator's face, {@code Admin.records}), never in a file in plain
 * text; and the tokens they are issued, signed with a secret kept outside the records ({@link
 * TokenSecret}), so that reading the store is not enough to sign one.
 *
 * <p>Layout: one record per identity, whose record id is derived from the name (the first 32 hex
 * characters of SHA-256 of {@code "identity\n" + name}), so a name is found with one read and two
 * processes creating the same name collide on the store's compare-and-swap; its state is {@code {
 * kind: identity, id, name, password, roles }}, where {@code id} is the identity's own random id
 * (what {@code auth:id} compares) and {@code password} a {@link Passwords} hash. Earlier versions
 * kept the token secret in one more record, derived from {@code "secret\ntokens"}; the first time
 * the secret is loaded, that record's key is overwritten ({@code {kind: secret, retired: true}}):
 * the old secret is never used again, since it was as readable as the store, and the tokens it
 * signed are refused.
 *
 * <p>Thread-safe; role changes retry on a lost compare-and-swap, so concurrent changes from the
 * command line and elsewhere are never lost.
 */
public final class Identities {
  /** The name of the runtime's store that holds them: {@code system.identities}. */
  public static final String STORE = "identities";

  /** A token's lifetime when none is asked for: one hour. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(1);

  /** The longest lifetime a token may be given: 30 days. */
  public static final Duration MAX_TTL = Duration.ofDays(30);

  /**
   * The most revoked tokens an identity's record keeps until they expire; a revocation past it
   * refuses every token of the identity issued before it.
   */
  static final int MAX_REVOKED = 64;

  static final int MAX_NAME = 128;
  static final int MAX_PASSWORD = 1024;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@+-]{1," + MAX_NAME + "}");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final tools.jackson.databind.ObjectMapper STATES =
      new tools.jackson.databind.ObjectMapper();
  private static final int ATTEMPTS = 16;
  private static final Logger LOG = LoggerFactory.getLogger(Identities.class);

  private final SystemRecords store;
  private final Clock clock;
  private final SecureRandom random;
  private final Passwords passwords;
  private final TokenSecret secret;
  private volatile Tokens tokens;
  private volatile String secretSource = "";

  /** An identity as stored, without its password hash. */
  public record Identity(String id, String name, List<String> roles) {}

  /** A token and the moment it stops being accepted. */
  public record Token(String token, Instant expires) {}

  /**
   * The identities of a context, whose tokens are signed with the secret this process's environment
   * names ({@code TOA_TOKEN_SECRET}, {@code TOA_TOKEN_SECRET_FILE}), else with the one kept in
   * {@code <state>/secrets/token.key} ({@code .toa/secrets/token.key}), made on first need.
   *
   * @param store the runtime's records {@link #STORE}: {@code application.admin().records(STORE)}
   * @param state the context's own state folder ({@code .toa/}, {@code Toa.state()})
   * @param clock decides when tokens expire
   */
  public Identities(SystemRecords store, Path state, Clock clock) {
    this(
        store,
        new TokenSecret(state, System.getenv(), new SecureRandom()),
        clock,
        new SecureRandom(),
        new Passwords(new SecureRandom()));
  }

  Identities(
      SystemRecords store,
      TokenSecret secret,
      Clock clock,
      SecureRandom random,
      Passwords passwords) {
    this.store = store;
    this.secret = secret;
    this.clock = clock;
    this.random = random;
    this.passwords = passwords;
  }

  /**
   * Creates an identity with a new random id, the password's hash and the roles.
   *
   * @param password cleared by this method once hashed
   * @throws IdentityException MALFORMED for a bad name, empty or overlong password or bad scope;
   *     TAKEN when the name is held
   */
  public Identity create(String name, char[] password, Collection<String> roles) {
    try {
      checkName(name);
      if (password.length == 0)
        throw malformed("the password is empty; give one of at least one character");
      if (password.length > MAX_PASSWORD)
        throw malformed("the password is longer than " + MAX_PASSWORD + " characters");
      List<String> scopes =
          List.copyOf(new LinkedHashSet<>(roles.stream().map(Scopes::check).toList()));
      byte[] bytes = new byte[16];
      random.nextBytes(bytes);
      Identity identity = new Identity(HexFormat.of().formatHex(bytes), name, scopes);
      ObjectNode state = state(identity, passwords.hash(password));
      if (!store.create(key("identity", name), json(state))) {
        throw new IdentityException(
            IdentityException.Reason.TAKEN,
            "an identity named '" + name + "' exists; choose another name");
      }
      return identity;
    } finally {
      java.util.Arrays.fill(password, '\0');
    }
  }

  /** The identity of that name, if there is one. */
  public Optional<Identity> find(String name) {
    return stored(name).map(Identities::identity);
  }

  /**
   * Adds and removes roles (removals after additions), retrying when another change wins the race.
   *
   * @return the identity with its roles after the change
   * @throws IdentityException MALFORMED for a bad scope, UNKNOWN when no identity has the name
   */
  public Identity changeRoles(String name, Collection<String> add, Collection<String> remove) {
    add.forEach(Scopes::check);
    remove.forEach(Scopes::check);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Record record = stored(name).orElseThrow(() -> unknown(name));
      Set<String> roles = new LinkedHashSet<>(identity(record).roles());
      roles.addAll(add);
      roles.removeAll(remove);
      ObjectNode state = object(record.json());
      strings(state, "roles", roles);
      if (store.replace(record, json(state))) return identity(state);
    }
    throw new IllegalStateException(
        "The roles of '"
            + name
            + "' changed "
            + ATTEMPTS
            + " times while this change was made; try again");
  }

  /**
   * A signed token for the identity, valid for {@code ttl}.
   *
   * @throws IdentityException MALFORMED for a lifetime outside 1 s to {@link #MAX_TTL}; UNKNOWN
   *     when no identity has the name
   */
  public Token issue(String name, Duration ttl) {
    if (ttl.compareTo(Duration.ofSeconds(1)) < 0 || ttl.compareTo(MAX_TTL) > 0) {
      throw malformed(
          "a token lives 1 to " + MAX_TTL.toSeconds() + " seconds; got " + ttl.toSeconds());
    }
    Identity identity = find(name).orElseThrow(() -> unknown(name));
    return issue(identity, ttl);
  }

  Token issue(Identity identity, Duration ttl) {
    Instant expires = clock.instant().plus(ttl);
    return new Token(
        tokens().issue(identity.id(), identity.name(), expires),
        Instant.ofEpochSecond(expires.getEpochSecond()));
  }

  /**
   * The identity whose password this is, with its stored hash (the key of a cached verification),
   * if the name is held and the password matches. Runs the slow KDF once either way.
   */
  Optional<Verified> verify(String name, char[] password) {
    Optional<Record> record = NAME.matcher(name).matches() ? stored(name) : Optional.empty();
    if (record.isEmpty() || password.length == 0 || password.length > MAX_PASSWORD) {
      passwords.decoy(password);
      return Optional.empty();
    }
    String hash = object(record.get().json()).path("password").asString();
    return passwords.verify(password, hash)
        ? Optional.of(new Verified(identity(record.get()), hash))
        : Optional.empty();
  }

  /** An identity whose password matched the stored hash. */
  record Verified(Identity identity, String hash) {}

  /** The identity and its stored password hash, read now, if the name is held. */
  Optional<Verified> current(String name) {
    return stored(name)
        .map(r -> new Verified(identity(r), object(r.json()).path("password").asString()));
  }

  /**
   * Whom a token found valid speaks for now, read now: its identity, and whether the identity's
   * record revoked the token; empty when the identity was removed (or made again under its name).
   */
  Optional<Bearer> bearer(Tokens.Checked.Valid token, String text) {
    return stored(token.name())
        .map(r -> object(r.json()))
        .filter(state -> state.path("id").asString().equals(token.id()))
        .map(state -> new Bearer(identity(state), revoked(state, token, text)));
  }

  /** The identity a token speaks for, and whether it revoked the token. */
  record Bearer(Identity identity, boolean revoked) {}

  /**
   * Revokes a token of the identity until it expires, as a log-out does: from now on it is refused
   * wherever the context's gateway runs, since each request reads the identity's record. The record
   * keeps at most {@value #MAX_REVOKED} revoked tokens until they expire; a revocation past that
   * refuses every token of the identity issued before it, the others' sessions too.
   *
   * @param token a token {@link Tokens#check} found valid for this identity
   * @param text the token as sent
   */
  void revoke(Tokens.Checked.Valid token, String text) {
    long now = clock.instant().getEpochSecond();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<Record> stored = stored(token.name());
      if (stored.isEmpty() || !identity(stored.get()).id().equals(token.id()))
        return; // an identity removed or made again: its tokens are refused already
      ObjectNode state = object(stored.get().json());
      java.util.TreeMap<Long, List<String>> byExpiry = new java.util.TreeMap<>();
      state
          .path("revoked")
          .properties()
          .forEach(
              e -> {
                if (e.getValue().asLong() > now)
                  byExpiry
                      .computeIfAbsent(e.getValue().asLong(), k -> new ArrayList<>())
                      .add(e.getKey());
              });
      byExpiry
          .computeIfAbsent(token.expires().getEpochSecond(), k -> new ArrayList<>())
          .add(fingerprint(text));
      ObjectNode revoked = NODES.objectNode();
      byExpiry
          .descendingMap()
          .forEach(
              (expires, marks) ->
                  marks.forEach(
                      m -> {
                        if (revoked.size() < MAX_REVOKED) revoked.put(m, expires);
                        else state.put("tokensBefore", now);
                      }));
      state.set("revoked", revoked);
      if (store.replace(stored.get(), json(state))) return;
    }
    throw new IllegalStateException(
        "The identity '"
            + token.name()
            + "' changed "
            + ATTEMPTS
            + " times while a token was revoked; try again");
  }

  /** Whether the identity's record refuses the token: revoked by name, or issued before a cut. */
  private static boolean revoked(JsonNode state, Tokens.Checked.Valid token, String text) {
    if (token.issued().getEpochSecond() < state.path("tokensBefore").asLong(Long.MIN_VALUE))
      return true;
    return state.path("revoked").has(fingerprint(text));
  }

  /** How a revoked token is named in the record: 32 hex characters of its SHA-256. */
  private static String fingerprint(String token) {
    return key("token", token);
  }

  /**
   * The signer and checker of tokens, with the secret loaded on first need (and the secret earlier
   * versions kept in the store retired then).
   *
   * @throws io.toa4j.runtime.StartupException when the secret's place holds none that can be used
   */
  Tokens tokens() {
    Tokens loaded = tokens;
    if (loaded == null) {
      synchronized (this) {
        if (tokens == null) {
          TokenSecret.Loaded key = secret.load();
          retireStoredSecret(key.where());
          secretSource = key.where();
          tokens = new Tokens(key.key(), clock);
        }
        loaded = tokens;
      }
    }
    return loaded;
  }

  /** Where the token secret was found, once {@link #tokens()} has loaded it; for the log. */
  String secretSource() {
    return secretSource;
  }

  Passwords passwords() {
    return passwords;
  }

  /**
   * Overwrites the secret earlier versions kept in the store, if it is there: it was as readable as
   * the records, so it is replaced, not moved, and the tokens it signed are refused.
   */
  private void retireStoredSecret(String replacement) {
    String id = key("secret", "tokens");
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<Record> stored = store.read(id);
      if (stored.isEmpty() || !object(stored.get().json()).has("key")) return;
      ObjectNode state = NODES.objectNode().put("kind", "secret").put("retired", true);
      if (store.replace(stored.get(), json(state))) {
        LOG.warn(
            "The token secret earlier versions kept in system.{} is retired: tokens it signed are refused from now on;"
                + " tokens are signed with the secret in {}",
            STORE,
            replacement);
        return;
      }
    }
    throw new IllegalStateException(
        "The old token secret in system."
            + STORE
            + " changed "
            + ATTEMPTS
            + " times while it was retired; try again");
  }

  private Optional<Record> stored(String name) {
    return store
        .read(key("identity", name))
        .filter(r -> object(r.json()).path("kind").asString().equals("identity"));
  }

  private static Identity identity(Record record) {
    return identity(object(record.json()));
  }

  private static Identity identity(JsonNode state) {
    List<String> roles = new ArrayList<>();
    state.path("roles").forEach(r -> roles.add(r.asString()));
    return new Identity(
        state.path("id").asString(), state.path("name").asString(), List.copyOf(roles));
  }

  private static ObjectNode state(Identity identity, String hash) {
    ObjectNode state =
        NODES
            .objectNode()
            .put("kind", "identity")
            .put("id", identity.id())
            .put("name", identity.name())
            .put("password", hash);
    strings(state, "roles", identity.roles());
    return state;
  }

  /** The record id for a kind of record and its key: 32 hex characters of SHA-256. */
  static String key(String kind, String value) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((kind + "\n" + value).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("The JDK has no SHA-256, which every Java 17 provides", e);
    }
  }

  /**
   * Checks a name before anything else is asked for.
   *
   * @throws IdentityException MALFORMED, saying the rule, when it does not fit
   */
  public static void checkName(String name) {
    if (!NAME.matcher(name).matches()) {
      throw malformed(
          "'"
              + name
              + "' is not an identity name; write 1 to "
              + MAX_NAME
              + " letters, digits, '.', '_', '@', '+' or '-'");
    }
  }

  private static IdentityException malformed(String message) {
    return new IdentityException(IdentityException.Reason.MALFORMED, message);
  }

  private static IdentityException unknown(String name) {
    return new IdentityException(
        IdentityException.Reason.UNKNOWN,
        "there is no identity named '" + name + "'; create it with toa identity create");
  }

  private static void strings(ObjectNode state, String field, Collection<String> values) {
    var array = state.putArray(field);
    values.forEach(array::add);
  }

  /** A state as the store keeps it. */
  private static String json(ObjectNode state) {
    try {
      return STATES.writeValueAsString(state);
    } catch (tools.jackson.core.JacksonException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** A stored state, as a fresh object to read or change. */
  private static ObjectNode object(String state) {
    try {
      return (ObjectNode) STATES.readTree(state);
    } catch (tools.jackson.core.JacksonException | ClassCastException e) {
      throw new IllegalStateException("A stored identity record is not a JSON object", e);
    }
  }
}
