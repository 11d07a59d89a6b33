package io.toa4j.test;

import io.toa4j.api.Request;
import io.toa4j.runtime.ToaBuilder;
import java.util.Map;

/** The kit's own test components, built in code: orders, and a mailer that receives them. */
final class Kit {
  static final String ORDER = "0c1d2e3f405162738495a6b7c8d9eaf0";

  static final String ORDERS = """
      entity:
        associated: true
        properties:
          item: { type: string }
      operations:
        place:
          concurrency: retry
          query: true
          input: { type: object, properties: { item: { type: string } }, required: [item] }
        rename:
          concurrency: retry
          query: true
          input: { type: object, properties: { item: { type: string } }, required: [item] }
      """;

  static final String MAILER = """
      operations:
        send:
          input: { type: object, properties: { item: { type: string } } }
      receivers:
        kit.orders.created: send
      """;

  private Kit() {}

  /** The two components, in a context named kit. */
  static void context(ToaBuilder b) {
    b.name("kit").component("kit.orders", ORDERS).component("kit.mailer", MAILER);
  }

  static Request place(String item) {
    return Request.of(ORDER, Map.of("item", item));
  }
}
