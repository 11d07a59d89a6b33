package io.toa4j.cli;

import io.toa4j.http.Identities;
import io.toa4j.http.IdentityException;
import java.io.ByteArrayOutputStream;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code toa identity}: the identities the HTTP gateway admits, managed in the context's storage
 * (the runtime's store {@code system.identities}) without a running context, or beside one: the
 * gateway reads them on every request.
 */
@Command(
    name = "identity",
    mixinStandardHelpOptions = true,
    versionProvider = Toa.Version.class,
    description = {
      "Manages the identities the HTTP gateway admits: their passwords (hashed), roles and tokens.",
      "",
      "They are kept in the context's storage, in the runtime's store system.identities, and work with no toa run"
          + " running, or beside one."
    },
    subcommands = {
      IdentityCommand.Create.class,
      IdentityCommand.Token.class,
      IdentityCommand.Roles.class
    })
final class IdentityCommand implements Callable<Integer> {
  private static final String EXIT_CODES_HEADING = "%nExit codes:%n";
  private static final int MAX_STDIN = 4096;

  @ParentCommand Toa toa;

  @Spec private CommandSpec spec;

  /** Without a subcommand: the usage, on stderr. */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("toa identity: name a command: create, token or roles");
    spec.commandLine().usage(spec.commandLine().getErr());
    return Toa.USAGE;
  }

  /**
   * Runs an action on the context's identities, turning what it refuses into a message and an exit
   * code.
   */
  private static <T> T on(IdentityCommand parent, Function<Identities, T> action) {
    Toa.quietLogs();
    try (io.toa4j.runtime.Toa stores =
        io.toa4j.runtime.Toa.builder().directory(parent.toa.context()).connect()) {
      return action.apply(
          new Identities(
              stores.admin().records(Identities.STORE), stores.state(), Clock.systemUTC()));
    } catch (IdentityException e) {
      throw problem(e);
    }
  }

  /** A refusal as the command line says it: malformed input is bad usage, the rest a refusal. */
  private static CliProblem problem(IdentityException e) {
    int code = e.reason() == IdentityException.Reason.MALFORMED ? Toa.USAGE : Toa.REFUSED;
    return new CliProblem("toa identity: " + e.getMessage(), code);
  }

  private static void print(CommandSpec spec, Object value) {
    PrintWriter out = spec.commandLine().getOut();
    out.print(
        value instanceof List<?> list && list.isEmpty()
            ? "[]\n"
            : YamlText.print(Optional.of(value)));
    out.flush();
  }

  private static Map<String, Object> describe(Identities.Identity identity) {
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("id", identity.id());
    described.put("name", identity.name());
    described.put("roles", identity.roles());
    return described;
  }

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      versionProvider = Toa.Version.class,
      description = {
        "Creates an identity and prints it (its id, name and roles) as YAML.",
        "",
        "The password is read from stdin (its first line), never from an argument, so it stays out of the shell's"
            + " history and the process list: printf '%%s\\n' \"$PASSWORD\" | toa identity create alice. At a terminal"
            + " it is asked for without echo. It is stored as a PBKDF2-HMAC-SHA256 hash."
      },
      exitCodeListHeading = EXIT_CODES_HEADING,
      exitCodeList = {
        " 0:created",
        " 1:failure",
        " 2:the name is taken",
        "64:bad usage: a malformed name or scope, an empty password"
      })
  static final class Create implements Callable<Integer> {
    @ParentCommand private IdentityCommand parent;

    @Spec private CommandSpec spec;

    @Parameters(
        paramLabel = "<name>",
        description = "1 to 128 letters, digits, '.', '_', '@', '+' or '-'.")
    private String name;

    @Option(
        names = "--role",
        paramLabel = "<scope>",
        description = "A role it holds, such as store:wallets; repeat for more.")
    private List<String> roles = new ArrayList<>();

    @Override
    public Integer call() {
      try {
        Identities.checkName(name); // before the password is asked for
      } catch (IdentityException e) {
        throw problem(e);
      }
      char[] password = password(parent.toa, "Password for " + name + ": ");
      Identities.Identity created =
          on(parent, identities -> identities.create(name, password, roles));
      print(spec, describe(created));
      return Toa.OUTPUT;
    }
  }

  @Command(
      name = "token",
      mixinStandardHelpOptions = true,
      versionProvider = Toa.Version.class,
      description = {
        "Prints a bearer token (a JWT, HS256) for the identity, signed with the context's token secret.",
        "",
        "Send it as authorization: Bearer <token>. It is accepted by the context's gateway until it expires; the"
            + " gateway also issues them on POST /.toa/token for Basic credentials.",
        "",
        "The secret is TOA_TOKEN_SECRET, else the file TOA_TOKEN_SECRET_FILE names, else .toa/secrets/token.key"
            + " (made 0600 on first need); give this command the same variables as toa run. Deleting or replacing the"
            + " secret and restarting toa run invalidates every token issued before."
      },
      exitCodeListHeading = EXIT_CODES_HEADING,
      exitCodeList = {
        " 0:printed",
        " 1:failure",
        " 2:no identity has the name",
        "64:bad usage: a lifetime out of range"
      })
  static final class Token implements Callable<Integer> {
    @ParentCommand private IdentityCommand parent;

    @Spec private CommandSpec spec;

    @Parameters(paramLabel = "<name>", description = "The identity's name.")
    private String name;

    @Option(
        names = "--ttl",
        paramLabel = "<seconds>",
        defaultValue = "3600",
        description = "How long it is accepted, 1 to 2592000 (30 days). Default: ${DEFAULT-VALUE}.")
    private long ttl;

    @Override
    public Integer call() {
      Identities.Token token =
          on(parent, identities -> identities.issue(name, Duration.ofSeconds(ttl)));
      spec.commandLine().getOut().println(token.token());
      spec.commandLine().getOut().flush();
      return Toa.OUTPUT;
    }
  }

  @Command(
      name = "roles",
      mixinStandardHelpOptions = true,
      versionProvider = Toa.Version.class,
      description = {
        "Prints the identity's roles as YAML, after adding and removing those given.",
        "",
        "A role covers the scopes under it: store covers store:wallets and store:wallets:x. A running gateway sees the"
            + " change on the next request."
      },
      exitCodeListHeading = EXIT_CODES_HEADING,
      exitCodeList = {
        " 0:printed",
        " 1:failure",
        " 2:no identity has the name",
        "64:bad usage: a malformed scope"
      })
  static final class Roles implements Callable<Integer> {
    @ParentCommand private IdentityCommand parent;

    @Spec private CommandSpec spec;

    @Parameters(paramLabel = "<name>", description = "The identity's name.")
    private String name;

    @Option(
        names = "--add",
        paramLabel = "<scope>",
        description = "A role to add; repeat for more.")
    private List<String> add = new ArrayList<>();

    @Option(
        names = "--remove",
        paramLabel = "<scope>",
        description = "A role to remove (after adding); repeat for more.")
    private List<String> remove = new ArrayList<>();

    @Override
    public Integer call() {
      Identities.Identity identity =
          on(
              parent,
              identities ->
                  add.isEmpty() && remove.isEmpty()
                      ? identities
                          .find(name)
                          .orElseThrow(
                              () ->
                                  new CliProblem(
                                      "toa identity: there is no identity named '"
                                          + name
                                          + "'; create it with toa identity create",
                                      Toa.REFUSED))
                      : identities.changeRoles(name, add, remove));
      print(spec, identity.roles());
      return Toa.OUTPUT;
    }
  }

  /**
   * The password: asked for without echo at a terminal, else the first line of stdin (without its
   * line end).
   *
   * @throws CliProblem with the usage exit code when it is empty
   */
  static char[] password(Toa toa, String prompt) {
    char[] password;
    Console console = System.console();
    if (toa.input() == System.in && console != null) {
      password = console.readPassword(prompt);
      if (password == null) password = new char[0];
    } else {
      password = firstLine(toa.input());
    }
    if (password.length == 0) {
      throw new CliProblem(
          "toa identity: the password is empty; write it to stdin, such as printf '%s\\n' \"$PASSWORD\" | toa identity create <name>",
          Toa.USAGE);
    }
    return password;
  }

  private static char[] firstLine(InputStream in) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
        if (bytes.size() == MAX_STDIN)
          throw new CliProblem(
              "toa identity: the password on stdin is longer than " + MAX_STDIN + " bytes",
              Toa.USAGE);
        bytes.write(b);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the password from stdin", e);
    }
    byte[] raw = bytes.toByteArray();
    int length = raw.length > 0 && raw[raw.length - 1] == '\r' ? raw.length - 1 : raw.length;
    CharBuffer chars = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(raw, 0, length));
    char[] password = new char[chars.remaining()];
    chars.get(password);
    Arrays.fill(raw, (byte) 0);
    if (chars.hasArray()) Arrays.fill(chars.array(), '\0');
    return password;
  }
}
