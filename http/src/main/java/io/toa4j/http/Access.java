package io.toa4j.http;

import io.micrometer.core.instrument.FunctionCounter;
import io.toa4j.runtime.Toa;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * Who may take a route: checks a request's credentials (HTTP Basic, or a bearer token this gateway
 * signed) and the route's {@code auth:*} directives, before anything reaches the application; and
 * issues tokens on {@code POST /.toa/token}.
 *
 * <p>Decisions, in order: credentials that are sent are always checked, and wrong ones are 401 on
 * every route, anonymous ones included, so a confused client learns it at once. Then, as in Toa,
 * {@code auth:anonymous: true} admits a request that sends no credentials (any other route answers
 * it 401); {@code auth:anyone: true} admits every identity; {@code auth:id} admits the identity
 * whose id is the route variable's value; {@code auth:role} admits an identity holding a covering
 * scope ({@link Scopes}); anything else is 403. A route with no directive is closed: 401, or 403
 * with credentials.
 *
 * <p>Basic verification runs the slow KDF; a success is cached for {@link #CACHE_TTL} (at most
 * {@link #CACHE_SIZE} entries, least recently used out first), keyed by an HMAC of the presented
 * header under a key that lives in this process's memory only. A cached success still reads the
 * identity on every request, and holds only while the stored hash is the one it matched: a changed
 * password or a removed identity takes effect at once, and roles are always current. Failures are
 * never cached. Before a derivation runs, the name and the client's address are checked against
 * their wrong passwords ({@link Guesses}): past the limit the answer is 429 with {@code
 * retry-after}, and no derivation runs. Thread-safe.
 */
final class Access {
  static final String TOKEN_PATH = "/.toa/token";
  static final Duration CACHE_TTL = Duration.ofMinutes(5);
  static final int CACHE_SIZE = 1024;
  private static final String REALM = "toa";
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Access.class);

  private final Identities identities;
  private final Guesses guesses;
  private final Clock clock;
  private final SecretKeySpec cacheKey;
  private final Map<String, Cached> cache =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
          return size() > CACHE_SIZE;
        }
      };

  private record Cached(String name, String hash, long until) {}

  /** An identity that proved itself on this request, with its roles as stored now. */
  private record Proven(Identities.Identity identity) {
    Caller caller() {
      return new Caller(identity.id(), identity.name());
    }
  }

  Access(Identities identities, Guesses guesses, Clock clock) {
    this.identities = identities;
    this.guesses = guesses;
    this.clock = clock;
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    this.cacheKey = new SecretKeySpec(key, "HmacSHA256");
  }

  /**
   * The access of an application: its identities in its system store, its clock; and a meter of the
   * password derivations run, {@code toa.credentials.derivations}, which shows the KDF's load (and
   * guessing) on the gateway. The token secret is loaded here, at start.
   *
   * @throws io.toa4j.runtime.StartupException when the token secret's place holds none that can be
   *     used
   */
  static Access of(Toa application, GatewaySettings settings) {
    Identities identities =
        new Identities(
            application.admin().records(Identities.STORE),
            application.state(),
            application.clock());
    identities
        .tokens(); // at start, so a secret that cannot be used stops the gateway before it serves
    LOG.info("Bearer tokens are signed with the token secret in {}", identities.secretSource());
    FunctionCounter.builder(
            "toa.credentials.derivations", identities.passwords(), Passwords::derivations)
        .description("password hash derivations run to verify Basic credentials")
        .register(application.metrics());
    Guesses guesses =
        new Guesses(
            settings.nameGuesses(),
            settings.addressGuesses(),
            settings.guessWindow(),
            application.clock());
    return new Access(identities, guesses, application.clock());
  }

  /**
   * The caller, if the directives admit it at the path: a component's route and method, or one of
   * the gateway's own endpoints.
   *
   * @throws Problem 401 with challenges when credentials are missing or wrong, 403 when valid
   *     credentials are not granted the route, 429 when its name or address guessed too often
   */
  Caller admit(
      Request request,
      Response response,
      String path,
      Route.Directives directives,
      Map<String, String> variables) {
    Optional<Proven> proven = authenticate(request, response);
    if (directives.anonymous() && proven.isEmpty()) return Caller.ANONYMOUS;
    if (proven.isEmpty()) {
      throw unauthorized(
          response,
          false,
          path
              + " is open to "
              + grantees(directives)
              + "; send credentials (Basic, or a bearer token from POST "
              + TOKEN_PATH
              + ")");
    }
    Identities.Identity identity = proven.get().identity();
    boolean self = directives.id().map(v -> identity.id().equals(variables.get(v))).orElse(false);
    if (directives.anyone() || self || Scopes.grant(identity.roles(), directives.roles()))
      return proven.get().caller();
    throw new Problem(
        403,
        "FORBIDDEN",
        path
            + " is open to "
            + grantees(directives)
            + "; '"
            + identity.name()
            + "' holds "
            + (identity.roles().isEmpty() ? "no role" : "the roles " + identity.roles())
            + ", which grant none of it");
  }

  /**
   * {@code POST /.toa/token} with Basic credentials: a bearer token for the identity. {@code DELETE
   * /.toa/token} with a bearer token: that token revoked, as a log-out.
   */
  Map<String, Object> token(Request request, Response response) {
    if (request.getMethod().equals("DELETE")) return revoke(request, response);
    if (!request.getMethod().equals("POST")) {
      response.getHeaders().put(HttpHeader.ALLOW, "POST, DELETE");
      throw new Problem(
          405,
          "METHOD_NOT_ALLOWED",
          TOKEN_PATH
              + " answers POST, with Basic credentials, for a token, and DELETE, with a bearer"
              + " token, to revoke it");
    }
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null || !scheme(header).equals("basic")) {
      throw unauthorized(
          response,
          false,
          TOKEN_PATH + " issues tokens for Basic credentials; send name and password with Basic");
    }
    Identities.Identity identity = basic(header, request, response).identity();
    Identities.Token token = identities.issue(identity, Identities.DEFAULT_TTL);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("token", token.token());
    body.put("type", "Bearer");
    body.put("expires", token.expires().toString());
    body.put("id", identity.id());
    body.put("name", identity.name());
    return body;
  }

  /** {@code DELETE /.toa/token}: the bearer token it carries revoked until it expires. */
  private Map<String, Object> revoke(Request request, Response response) {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null || !scheme(header).equals("bearer")) {
      throw unauthorized(
          response,
          true,
          TOKEN_PATH + " revokes the bearer token a DELETE carries; send it as Bearer");
    }
    String token = header.substring(6).trim();
    Tokens.Checked.Valid valid = valid(token, response);
    bearer(token, response); // a token revoked already, or of an identity gone, is refused
    identities.revoke(valid, token);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("revoked", true);
    body.put("expires", valid.expires().toString());
    return body;
  }

  private Optional<Proven> authenticate(Request request, Response response) {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null) return Optional.empty();
    return switch (scheme(header)) {
      case "basic" -> Optional.of(basic(header, request, response));
      case "bearer" -> Optional.of(bearer(header.substring(6).trim(), response));
      default ->
          throw unauthorized(
              response,
              false,
              "the authorization scheme '"
                  + header.split(" ", 2)[0]
                  + "' is not accepted; use Basic or Bearer");
    };
  }

  private static String scheme(String header) {
    int space = header.indexOf(' ');
    return (space < 0 ? header : header.substring(0, space)).toLowerCase(Locale.ROOT);
  }

  private Proven basic(String header, Request request, Response response) {
    String encoded = header.substring(Math.min(header.length(), 6)).trim();
    String cacheKey = cacheKey(encoded);
    Optional<Proven> cached = cached(cacheKey);
    if (cached.isPresent())
      return cached.get(); // a proven header is no guess: served even while its name waits
    char[] decoded = decode(encoded, response);
    try {
      int colon = indexOf(decoded, ':');
      if (colon < 0)
        throw unauthorized(response, false, "the Basic credentials are not name:password");
      String name = new String(decoded, 0, colon);
      String address = Guesses.address(request.getConnectionMetaData().getRemoteSocketAddress());
      guesses
          .blocked(name, address)
          .ifPresent(
              wait -> {
                long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
                response.getHeaders().put(HttpHeader.RETRY_AFTER, Long.toString(seconds));
                throw new Problem(
                    429,
                    "TOO_MANY_GUESSES",
                    "too many wrong passwords for this name or from this address; Basic credentials for it are"
                        + " not checked for "
                        + seconds
                        + " s (a bearer token already issued still works)");
              });
      char[] password = Arrays.copyOfRange(decoded, colon + 1, decoded.length);
      try {
        Optional<Identities.Verified> verified =
            guesses.derive(() -> identities.verify(name, password));
        if (verified.isEmpty()) {
          Duration hold = guesses.failed(name, address);
          throw unauthorized(response, false, "the name or the password is wrong").held(hold);
        }
        guesses.succeeded(name);
        synchronized (cache) {
          cache.put(
              cacheKey,
              new Cached(name, verified.get().hash(), clock.millis() + CACHE_TTL.toMillis()));
        }
        return new Proven(verified.get().identity());
      } finally {
        Arrays.fill(password, '\0');
      }
    } finally {
      Arrays.fill(decoded, '\0');
    }
  }

  /** A verification cached and still true: not expired, and the stored hash is the one matched. */
  private Optional<Proven> cached(String key) {
    Cached hit;
    synchronized (cache) {
      hit = cache.get(key);
      if (hit != null && hit.until() <= clock.millis()) {
        cache.remove(key);
        hit = null;
      }
    }
    if (hit == null) return Optional.empty();
    String matched = hit.hash();
    Optional<Identities.Verified> now =
        identities.current(hit.name()).filter(v -> v.hash().equals(matched));
    if (now.isEmpty()) {
      synchronized (cache) {
        cache.remove(key);
      }
    }
    return now.map(v -> new Proven(v.identity()));
  }

  private Proven bearer(String token, Response response) {
    Tokens.Checked.Valid valid = valid(token, response);
    Identities.Bearer bearer =
        identities
            .bearer(valid, token)
            .orElseThrow(
                () ->
                    unauthorized(
                        response, true, "the identity the bearer token names no longer exists"));
    if (bearer.revoked())
      throw unauthorized(
          response,
          true,
          "the bearer token was revoked (logged out); get a new one from " + TOKEN_PATH);
    return new Proven(bearer.identity());
  }

  private Tokens.Checked.Valid valid(String token, Response response) {
    Tokens.Checked checked = identities.tokens().check(token);
    if (checked instanceof Tokens.Checked.Invalid invalid)
      throw unauthorized(response, true, invalid.reason());
    return (Tokens.Checked.Valid) checked;
  }

  private static char[] decode(String encoded, Response response) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      throw unauthorized(response, false, "the Basic credentials are not base64");
    }
    try {
      CharBuffer chars =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes));
      char[] decoded = new char[chars.remaining()];
      chars.get(decoded);
      return decoded;
    } catch (CharacterCodingException e) {
      throw unauthorized(response, false, "the Basic credentials are not UTF-8");
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
  }

  private static int indexOf(char[] chars, char c) {
    for (int i = 0; i < chars.length; i++) if (chars[i] == c) return i;
    return -1;
  }

  private String cacheKey(String presented) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(cacheKey);
      return HexFormat.of().formatHex(mac.doFinal(presented.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("The JDK has no HmacSHA256, which every Java 17 provides", e);
    }
  }

  /** 401 with both challenges; a rejected bearer token's says so (RFC 6750). */
  private static Problem unauthorized(Response response, boolean invalidToken, String message) {
    response
        .getHeaders()
        .put(HttpHeader.WWW_AUTHENTICATE, "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"");
    response
        .getHeaders()
        .add(
            HttpHeader.WWW_AUTHENTICATE,
            "Bearer realm=\"" + REALM + "\"" + (invalidToken ? ", error=\"invalid_token\"" : ""));
    return new Problem(401, "UNAUTHORIZED", message);
  }

  private static String grantees(Route.Directives directives) {
    List<String> grantees = new ArrayList<>();
    if (directives.anonymous()) grantees.add("callers that send no credentials");
    if (directives.anyone()) grantees.add("every identity");
    if (!directives.roles().isEmpty()) grantees.add("the roles " + directives.roles());
    directives.id().ifPresent(v -> grantees.add("the identity whose id is :" + v));
    return grantees.isEmpty()
        ? "nobody (it declares no auth directive)"
        : String.join(" and ", grantees);
  }
}
