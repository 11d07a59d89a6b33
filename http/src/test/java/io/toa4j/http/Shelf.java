package io.toa4j.http;

import java.nio.file.Path;

/**
 * A context with one exposed component whose routes declare every kind of access: a role, a
 * narrower role, auth:id, anonymous (no credentials), anyone (any identity), both, and nothing at
 * all (closed). Its entity is associated, so any id reads as a blank record and every granted GET
 * is 200.
 */
final class Shelf {
  /** Each route the exposition declares, under the record {@code :id}. */
  static final String BY_ROLE = "";

  static final String BY_NARROWER_ROLE = "wallets/";
  static final String BY_ID = "mine/";
  static final String OPEN = "open/";
  static final String ANYONE = "anyone/";
  static final String PUBLIC = "public/";
  static final String CLOSED = "sealed/";

  private Shelf() {}

  static Path context(Path directory) {
    Notes.write(directory, "context.toa.yaml", "name: test\n");
    Notes.write(
        directory,
        "components/test.shelf/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            text: { type: string, maxLength: 100 }
        operations:
          write:
            query: true
            input: { type: object, properties: { text: { type: string } }, required: [text] }
        exposition:
          /:id:
            auth:role: store
            io:output: [id, text]
            GET: observe
            PUT: write
            /open:
              auth:anonymous: true
              GET: observe
            /anyone:
              auth:anyone: true
              GET: observe
            /public:
              auth:anonymous: true
              auth:anyone: true
              GET: observe
            /wallets:
              auth:role: [store:wallets, admin]
              GET: observe
            /mine:
              auth:id: id
              GET: observe
          /:id/sealed:
            io:output: [id]
            GET: observe
        """);
    Notes.write(
        directory,
        "components/test.shelf/Item.java",
        """
        package test.shelf;
        public class Item extends io.toa4j.api.Entry { public String text; }
        """);
    Notes.write(
        directory,
        "components/test.shelf/operations/Write.java",
        """
        package test.shelf.operations;
        public class Write implements io.toa4j.api.Transition<Write.Input, test.shelf.Item> {
          public record Input(String text) {}
          public Object transition(Input input, test.shelf.Item entry) {
            entry.text = input.text();
            return entry;
          }
        }
        """);
    return directory;
  }
}
