package io.toa4j.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A context of one component, {@code test.shelf}, whose record is read over HTTP by a caller with a
 * role: written to a folder, served by {@link ToaShell#serve}, asked by the JDK's client. What the
 * ITs of identities and secrets meet a gateway with.
 */
final class Shelf {
  /** The record the route reads (none is written: the gateway's answer is about who may ask). */
  static final String RECORD = "5e1f0c2e5a7b4c3d9e6f1a2b3c4d5e6f";

  static final String PATH = "/test/shelf/" + RECORD + "/";

  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  private Shelf() {}

  /**
   * Writes the shelf into {@code parent/shelf}, its route open to callers with {@code role};
   * answers the folder.
   */
  static Path write(Path parent, String role) throws IOException {
    Path context = Files.createDirectories(parent.resolve("shelf"));
    write(context, "context.toa.yaml", "name: shelf\n");
    write(
        context,
        "components/test.shelf/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            text: { type: string }
        exposition:
          /:id:
            auth:role: %s
            io:output: [id]
            GET: observe
        """
            .formatted(role));
    write(
        context,
        "components/test.shelf/Item.java",
        """
        package test.shelf;
        public class Item extends io.toa4j.api.Entry { public String text; }
        """);
    return context;
  }

  /**
   * Sends a request without a body to the gateway on {@code port}, with the authorization header if
   * there is one.
   */
  static HttpResponse<String> send(int port, String method, String path, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) request.header("authorization", authorization);
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void write(Path context, String file, String text) throws IOException {
    Path path = context.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, text);
  }
}
