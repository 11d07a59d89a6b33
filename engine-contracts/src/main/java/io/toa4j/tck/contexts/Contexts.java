package io.toa4j.tck.contexts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The small contexts the engine suites boot, written into a folder of a test's own: their manifests
 * and their components' sources, compiled by the runtime when the context starts. Each method
 * writes one context and answers its folder.
 */
public final class Contexts {
  private Contexts() {}

  /**
   * {@code test.sources}, whose {@code emit} writes {@code { failures, refuse }} to a record and
   * whose {@code schedule} sends the same as a task to the sink, and {@code test.sinks}, which
   * receives {@code test.sources.created} with {@code absorb}: it throws while it has been called
   * fewer times than {@code failures} for that record, refuses when {@code refuse}, and otherwise
   * records the identity of the delivery in its own record, once: {@code received} counts the
   * distinct identities it saw.
   */
  public static Path sourceAndSink(Path directory) {
    write(directory, "context.toa.yaml", "name: test\n");
    write(
        directory,
        "components/test.sources/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            failures: { type: integer }
            refuse: { type: boolean }
        operations:
          emit:
            query: true
            input:
              type: object
              properties:
                failures: { type: integer, minimum: 0 }
                refuse: { type: boolean }
              required: [failures, refuse]
          schedule:
            input:
              type: object
              properties:
                id: { type: string }
                failures: { type: integer, minimum: 0 }
                refuse: { type: boolean }
              required: [id, failures, refuse]
        """);
    write(
        directory,
        "components/test.sources/operations/Schedule.java",
        """
        package test.sources.operations;
        import io.toa4j.api.*;
        import java.util.Map;
        public class Schedule implements Effect<Schedule.Input> {
          public record Input(String id, long failures, boolean refuse) {}
          public Object effect(Input input, Context context) {
            context.remote("test.sinks").task("absorb", Request.of(input.id(), Map.of("failures", input.failures(), "refuse", input.refuse())));
            return null;
          }
        }
        """);
    write(
        directory,
        "components/test.sources/Source.java",
        """
        package test.sources;
        public class Source extends io.toa4j.api.Entry {
          public Long failures;
          public Boolean refuse;
        }
        """);
    write(
        directory,
        "components/test.sources/operations/Emit.java",
        """
        package test.sources.operations;
        import test.sources.Source;
        public class Emit implements io.toa4j.api.Transition<Emit.Input, Source> {
          public record Input(long failures, boolean refuse) {}
          public Object transition(Input input, Source entry) {
            entry.failures = input.failures();
            entry.refuse = input.refuse();
            return entry;
          }
        }
        """);
    write(
        directory,
        "components/test.sinks/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            received: { type: integer }
            identities: { type: object, additionalProperties: { type: boolean } }
        operations:
          absorb:
            concurrency: retry
            query: true
            input:
              type: object
              properties:
                failures: { type: integer, minimum: 0 }
                refuse: { type: boolean }
              required: [failures, refuse]
            errors: [REFUSED]
        receivers:
          test.sources.created: absorb
        """);
    write(
        directory,
        "components/test.sinks/Sink.java",
        """
        package test.sinks;
        public class Sink extends io.toa4j.api.Entry {
          public long received;
          public java.util.Map<String, Boolean> identities = new java.util.LinkedHashMap<>();
        }
        """);
    write(
        directory,
        "components/test.sinks/operations/Absorb.java",
        """
        package test.sinks.operations;
        import io.toa4j.api.Refusal;
        import java.util.Map;
        import java.util.concurrent.ConcurrentHashMap;
        import test.sinks.Sink;
        public class Absorb implements io.toa4j.api.Transition<Absorb.Input, Sink> {
          public record Input(long failures, boolean refuse) {}
          private static final Map<String, Integer> CALLS = new ConcurrentHashMap<>();
          public Object transition(Input input, Sink entry, io.toa4j.api.Context context) {
            int call = CALLS.merge(entry.id(), 1, Integer::sum);
            if (call <= input.failures()) {
              throw new IllegalStateException("failure " + call + " of " + input.failures());
            }
            if (input.refuse()) return Refusal.of("REFUSED");
            if (entry.identities.containsKey(context.identity())) {
              entry.discard(); // this delivery was recorded already
              return entry;
            }
            entry.identities.put(context.identity(), true);
            entry.received++;
            return entry;
          }
        }
        """);
    write(
        directory,
        "components/test.sinks/receivers/TestSourcesCreated.java",
        """
        package test.sinks.receivers;
        import io.toa4j.api.*;
        import java.util.Map;
        public class TestSourcesCreated implements Receiver<TestSourcesCreated.Source> {
          public record Source(String id, long failures, boolean refuse) {}
          public Request request(Source source) {
            return Request.of(Query.id(source.id()), Map.of("failures", source.failures(), "refuse", source.refuse()));
          }
        }
        """);
    return directory;
  }

  /** Writes a file of the context, making the folders it is in. */
  public static void write(Path context, String file, String text) {
    try {
      Path path = context.resolve(file);
      Files.createDirectories(path.getParent());
      Files.writeString(path, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Replaces text in a file of the context.
   *
   * @throws AssertionError when the file does not hold the text
   */
  public static void edit(Path context, String file, String from, String to) {
    try {
      Path path = context.resolve(file);
      String text = Files.readString(path);
      if (!text.contains(from)) throw new AssertionError(file + " does not contain " + from);
      Files.writeString(path, text.replace(from, to));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code test.ledger}, whose {@code add} (retried, once) adds an amount to a balance, or refuses,
   * throws or discards as its input's {@code mode} says; {@code test.feed}, whose {@code post}
   * creates a record; and {@code test.relay}, which receives {@code test.feed.created} with the
   * effect {@code forward} calling {@code test.ledger.add}, and whose {@code eager} transition,
   * retried, calls {@code test.ledger.add} itself.
   */
  public static Path ledger(Path directory, String once) {
    write(directory, "context.toa.yaml", "name: test\n");
    write(
        directory,
        "components/test.ledger/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            balance: { type: integer }
        operations:
          add:
            concurrency: retry
            once: %s
            query: true
            input:
              type: object
              properties:
                amount: { type: integer }
                mode: { type: string, enum: [ok, refuse, throw, discard] }
              required: [amount, mode]
            errors: [REFUSED]
        """
            .formatted(once));
    write(
        directory,
        "components/test.ledger/Account.java",
        """
        package test.ledger;
        public class Account extends io.toa4j.api.Entry {
          public long balance;
        }
        """);
    write(
        directory,
        "components/test.ledger/operations/Add.java",
        """
        package test.ledger.operations;
        import io.toa4j.api.*;
        import test.ledger.Account;
        public class Add implements Transition<Add.Input, Account> {
          public record Input(long amount, String mode) {}
          public Object transition(Input input, Account entry) {
            switch (input.mode()) {
              case "refuse": return Refusal.of("REFUSED");
              case "throw": throw new IllegalStateException("asked to throw");
              case "discard": entry.discard(); return entry;
              default: entry.balance += input.amount(); return entry;
            }
          }
        }
        """);
    write(
        directory,
        "components/test.feed/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            account: { type: string }
            amount: { type: integer }
        operations:
          post:
            query: true
            input:
              type: object
              properties:
                account: { type: string }
                amount: { type: integer }
              required: [account, amount]
        """);
    write(
        directory,
        "components/test.feed/Post.java",
        """
        package test.feed;
        public class Post extends io.toa4j.api.Entry {
          public String account;
          public Long amount;
        }
        """);
    write(
        directory,
        "components/test.feed/operations/Post.java",
        """
        package test.feed.operations;
        public class Post implements io.toa4j.api.Transition<Post.Input, test.feed.Post> {
          public record Input(String account, long amount) {}
          public Object transition(Input input, test.feed.Post entry) {
            entry.account = input.account();
            entry.amount = input.amount();
            return entry;
          }
        }
        """);
    write(
        directory,
        "components/test.relay/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            calls: { type: integer }
        operations:
          forward:
            input:
              type: object
              properties:
                account: { type: string }
                amount: { type: integer }
              required: [account, amount]
          eager:
            concurrency: retry
            query: true
            input:
              type: object
              properties:
                account: { type: string }
                amount: { type: integer }
              required: [account, amount]
        receivers:
          test.feed.created: forward
        """);
    write(
        directory,
        "components/test.relay/Relay.java",
        """
        package test.relay;
        public class Relay extends io.toa4j.api.Entry {
          public long calls;
        }
        """);
    write(
        directory,
        "components/test.relay/operations/Forward.java",
        """
        package test.relay.operations;
        import io.toa4j.api.*;
        import java.util.Map;
        public class Forward implements Effect<Forward.Input> {
          public record Input(String account, long amount) {}
          public Object effect(Input input, Context context) {
            return context.remote("test.ledger").call("add", Request.of(input.account(), Map.of("amount", input.amount(), "mode", "ok")));
          }
        }
        """);
    write(
        directory,
        "components/test.relay/operations/Eager.java",
        """
        package test.relay.operations;
        import io.toa4j.api.*;
        import java.util.Map;
        public class Eager implements Transition<Eager.Input, test.relay.Relay> {
          public record Input(String account, long amount) {}
          public Object transition(Input input, test.relay.Relay entry, Context context) {
            entry.calls++;
            context.remote("test.ledger").call("add", Request.of(input.account(), Map.of("amount", input.amount(), "mode", "ok")));
            return entry;
          }
        }
        """);
    write(
        directory,
        "components/test.relay/receivers/TestFeedCreated.java",
        """
        package test.relay.receivers;
        import io.toa4j.api.*;
        import java.util.Map;
        public class TestFeedCreated implements Receiver<TestFeedCreated.Post> {
          public record Post(String account, long amount) {}
          public Request request(Post post) {
            return Request.input(Map.of("account", post.account(), "amount", post.amount()));
          }
        }
        """);
    return directory;
  }

  /**
   * {@code test.courier}, whose operations send a task to {@code test.notes.note} and then do as
   * their input's {@code mode} says: {@code dispatch} (a transition, retried) counts the dispatch,
   * or refuses, throws or discards; in mode {@code race}, while the record is not yet bumped, it
   * first calls {@code bump} on its own record, so that its first attempt loses its
   * compare-and-swap; {@code hand} (a transition declaring once) counts too; {@code send} (an
   * effect) answers, refuses or throws. {@code test.notes.note} (once) records the identity of each
   * call it runs: {@code received} counts them.
   */
  public static Path courier(Path directory) {
    write(directory, "context.toa.yaml", "name: test\n");
    String mode =
        "{ type: object, properties: { mode: { type: string, enum: [ok, refuse, throw, discard, race] }, note: { type: string } },"
            + " required: [mode, note] }";
    write(
        directory,
        "components/test.courier/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            bumped: { type: boolean }
            dispatched: { type: integer }
        operations:
          dispatch:
            concurrency: retry
            query: true
            input:
              %s
            errors: [REFUSED]
          hand:
            concurrency: retry
            once: true
            query: true
            input:
              %s
            errors: [REFUSED]
          bump:
            query: true
          send:
            input:
              %s
            errors: [REFUSED]
        """
            .formatted(mode, mode, mode));
    write(
        directory,
        "components/test.courier/Parcel.java",
        """
        package test.courier;
        public class Parcel extends io.toa4j.api.Entry {
          public boolean bumped;
          public long dispatched;
        }
        """);
    write(
        directory,
        "components/test.courier/Sending.java",
        """
        package test.courier;
        import io.toa4j.api.*;
        import java.util.Map;
        /** What every operation of the courier does: send the task, then do as the mode says. */
        public final class Sending {
          static final String NOTES = "fedcba9876543210fedcba9876543210";
          public static void task(Context context, String note) {
            context.remote("test.notes").task("note", Request.of(NOTES, Map.of("note", note)));
          }
          public static Object then(String mode, Parcel entry) {
            switch (mode) {
              case "refuse": return Refusal.of("REFUSED");
              case "throw": throw new IllegalStateException("asked to throw");
              case "discard": entry.discard(); return entry;
              default: entry.dispatched++; return entry;
            }
          }
        }
        """);
    write(
        directory,
        "components/test.courier/operations/Dispatch.java",
        """
        package test.courier.operations;
        import io.toa4j.api.*;
        import java.util.Map;
        import test.courier.Parcel;
        import test.courier.Sending;
        public class Dispatch implements Transition<Dispatch.Input, Parcel> {
          public record Input(String mode, String note) {}
          public Object transition(Input input, Parcel entry, Context context) {
            if (input.mode().equals("race") && !entry.bumped) {
              context.remote("test.courier").call("bump", Request.id(entry.id()));
            }
            Sending.task(context, input.note());
            return Sending.then(input.mode(), entry);
          }
        }
        """);
    write(
        directory,
        "components/test.courier/operations/Hand.java",
        """
        package test.courier.operations;
        import io.toa4j.api.*;
        import test.courier.Parcel;
        import test.courier.Sending;
        public class Hand implements Transition<Hand.Input, Parcel> {
          public record Input(String mode, String note) {}
          public Object transition(Input input, Parcel entry, Context context) {
            Sending.task(context, input.note());
            return Sending.then(input.mode(), entry);
          }
        }
        """);
    write(
        directory,
        "components/test.courier/operations/Bump.java",
        """
        package test.courier.operations;
        import test.courier.Parcel;
        public class Bump implements io.toa4j.api.Transition<Void, Parcel> {
          public Object transition(Void input, Parcel entry) {
            entry.bumped = true;
            return entry;
          }
        }
        """);
    write(
        directory,
        "components/test.courier/operations/Send.java",
        """
        package test.courier.operations;
        import io.toa4j.api.*;
        import test.courier.Sending;
        public class Send implements Effect<Send.Input> {
          public record Input(String mode, String note) {}
          public Object effect(Input input, Context context) {
            Sending.task(context, input.note());
            if (input.mode().equals("refuse")) return Refusal.of("REFUSED");
            if (input.mode().equals("throw")) throw new IllegalStateException("asked to throw");
            return null;
          }
        }
        """);
    write(
        directory,
        "components/test.notes/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            received: { type: integer }
            identities: { type: object, additionalProperties: { type: boolean } }
        operations:
          note:
            concurrency: retry
            once: true
            query: true
            input:
              type: object
              properties:
                note: { type: string }
              required: [note]
        """);
    write(
        directory,
        "components/test.notes/Notes.java",
        """
        package test.notes;
        public class Notes extends io.toa4j.api.Entry {
          public long received;
          public java.util.Map<String, Boolean> identities = new java.util.LinkedHashMap<>();
        }
        """);
    write(
        directory,
        "components/test.notes/operations/Note.java",
        """
        package test.notes.operations;
        import test.notes.Notes;
        public class Note implements io.toa4j.api.Transition<Note.Input, Notes> {
          public record Input(String note) {}
          public Object transition(Input input, Notes entry, io.toa4j.api.Context context) {
            entry.identities.put(context.identity(), true);
            entry.received++;
            return entry;
          }
        }
        """);
    return directory;
  }

  /**
   * A context {@code test} with {@code test.orders}, whose {@code place} writes an order of an
   * amount under the id it is given.
   */
  public static void orders(Path directory) {
    write(directory, "context.toa.yaml", "name: test\n");
    write(
        directory,
        "components/test.orders/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            amount: { type: integer }
        operations:
          place:
            query: true
            input:
              type: object
              properties:
                amount: { type: integer }
              required: [amount]
        """);
    write(
        directory,
        "components/test.orders/Order.java",
        """
        package test.orders;
        public class Order extends io.toa4j.api.Entry {
          public Long amount;
        }
        """);
    write(
        directory,
        "components/test.orders/operations/Place.java",
        """
        package test.orders.operations;
        import test.orders.Order;
        public class Place implements io.toa4j.api.Transition<Place.Input, Order> {
          public record Input(long amount) {}
          public Object transition(Input input, Order entry) {
            entry.amount = input.amount();
            return entry;
          }
        }
        """);
  }

  /**
   * A context of parked messages as events: {@code test.orders}; {@code test.fussy} and {@code
   * test.picky}, whose operations take only amounts of at least 0 from {@code test.orders.created};
   * {@code test.pager}, receiving the events of {@code system.messages}; and, when {@code broken},
   * {@code test.broken}, whose receiver of {@code system.messages.parked} cannot take its payload.
   */
  public static Path parkedEvents(Path directory, boolean broken) {
    orders(directory);
    fussy(directory, "fussy", "take");
    fussy(directory, "picky", "pick");
    write(
        directory,
        "components/test.pager/manifest.toa.yaml",
        """
        entity:
          properties:
            state: { type: string }
            message: { type: string }
            queue: { type: string }
            label: { type: string }
            operation: { type: string }
            code: { type: string }
            reason: { type: string }
            attempts: { type: integer }
            firstFailure: { type: string }
            lastFailure: { type: string }
            discardReason: { type: string }
        operations:
          note:
            input: { type: object }
        receivers:
          system.messages.parked: note
          system.messages.replayed: note
          system.messages.discarded: note
        """);
    write(
        directory,
        "components/test.pager/Note.java",
        """
        package test.pager;
        public class Note extends io.toa4j.api.Entry {
          public String state = "", message = "", queue = "", label = "", operation = "", code = "", reason = "";
          public String firstFailure = "", lastFailure = "", discardReason = "";
          public long attempts;
        }
        """);
    write(
        directory,
        "components/test.pager/operations/Note.java",
        """
        package test.pager.operations;
        public class Note implements io.toa4j.api.Transition<Note.Input, test.pager.Note> {
          public record Input(String state, String message, String queue, String label, String operation, String code,
              String reason, long attempts, String firstFailure, String lastFailure, String discardReason) {}
          public Object transition(Input in, test.pager.Note entry) {
            entry.state = in.state(); entry.message = in.message(); entry.queue = in.queue(); entry.label = in.label();
            entry.operation = in.operation(); entry.code = in.code(); entry.reason = in.reason(); entry.attempts = in.attempts();
            entry.firstFailure = in.firstFailure(); entry.lastFailure = in.lastFailure();
            entry.discardReason = in.discardReason() == null ? "" : in.discardReason();
            return entry;
          }
        }
        """);
    if (broken) {
      write(
          directory,
          "components/test.broken/manifest.toa.yaml",
          """
          operations:
            mind:
              input:
                type: object
                properties:
                  never: { type: string }
                required: [never]
          receivers:
            system.messages.parked: mind
          """);
      write(
          directory,
          "components/test.broken/operations/Mind.java",
          """
          package test.broken.operations;
          public class Mind implements io.toa4j.api.Computation<Mind.Input> {
            public record Input(String never) {}
            public Object computation(Input input) {
              return input.never();
            }
          }
          """);
    }
    return directory;
  }

  /**
   * {@code test.<name>}, whose computation {@code operation} receives test.orders.created and takes
   * no negative amount.
   */
  private static void fussy(Path directory, String name, String operation) {
    write(
        directory,
        "components/test." + name + "/manifest.toa.yaml",
        """
        operations:
          %s:
            input:
              type: object
              properties:
                amount: { type: integer, minimum: 0 }
              required: [amount]
        receivers:
          test.orders.created: %s
        """
            .formatted(operation, operation));
    String type = Character.toUpperCase(operation.charAt(0)) + operation.substring(1);
    write(
        directory,
        "components/test." + name + "/operations/" + type + ".java",
        """
        package test.%s.operations;
        public class %s implements io.toa4j.api.Computation<%s.Input> {
          public record Input(long amount) {}
          public Object computation(Input input) {
            return input.amount();
          }
        }
        """
            .formatted(name, type, type));
  }

  /**
   * The shop of the project's example ({@code examples/shop}: {@code billing.topups}, {@code
   * billing.wallets}, {@code fulfilment.shipments}), as this jar carries it.
   */
  public static Path shop(Path directory) {
    String root = "/io/toa4j/tck/contexts/shop";
    try {
      URI context =
          Objects.requireNonNull(
                  Contexts.class.getResource(root + "/context.toa.yaml"), "the shop's resources")
              .toURI();
      if (!context.getScheme().equals("jar")) {
        copy(Path.of(context).getParent(), directory);
        return directory;
      }
      FileSystem jar;
      boolean opened = false;
      try {
        jar = FileSystems.newFileSystem(context, Map.of());
        opened = true;
      } catch (FileSystemAlreadyExistsException e) {
        jar = FileSystems.getFileSystem(context);
      }
      try {
        copy(jar.getPath(root), directory);
      } finally {
        if (opened) jar.close();
      }
      return directory;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every file under {@code from}, copied to the same place under {@code to}. */
  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : (Iterable<Path>) files.sorted()::iterator) {
        Path copy = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) Files.createDirectories(copy);
        else Files.copy(source, copy);
      }
    }
  }
}
