package io.toa4j.manifest;

import static io.toa4j.manifest.Fixtures.component;
import static io.toa4j.manifest.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Toa's older entity dialect: entity.schema (concise or JSON Schema) and entity.storage. */
class EntitySchemaTest {
  @TempDir Path dir;

  private EntityDeclaration entity(String entity) {
    return component(dir, "chat.messages", "entity:\n" + entity).entity().orElseThrow();
  }

  @Test
  void conciseSchema_givesTheEntitysPropertiesAndItsRequiredNames() {
    EntityDeclaration entity =
        entity(
            """
          storage: sql
          schema:
            sender*: string(32)
            text*: string
            read: boolean
        """);

    assertThat(entity.properties())
        .isEqualTo(
            json(
                "{\"sender\":{\"type\":\"string\",\"maxLength\":32},\"text\":{\"type\":\"string\"},\"read\":{\"type\":\"boolean\"}}"));
    assertThat(entity.required()).containsExactly("sender", "text");
  }

  @Test
  void storage_isReadAsANameOrNothing() {
    assertThat(entity("  storage: ~\n  schema: { text: string }\n").properties().has("text"))
        .isTrue();
    assertThat(entity("  storage: mongodb\n  schema: { text: string }\n").properties().has("text"))
        .isTrue();
  }

  @Test
  void aBareDot_asAnInputPropertysSchema_isTheEntitysPropertyOfThatName() {
    ComponentManifest manifest =
        component(
            dir,
            "chat.messages",
            """
        entity:
          schema:
            text*: string(5)
        operations:
          transit:
            input:
              text*: .
        """);

    Schema input = manifest.operations().get("transit").input().orElseThrow();
    assertThat(input.source().at("/properties/text"))
        .isEqualTo(json("{\"type\":\"string\",\"maxLength\":5}"));
  }

  @Test
  void noPrototype_andAReceiversBinding_areRead() {
    ComponentManifest manifest =
        component(
            dir,
            "chat.messages",
            """
        prototype: null
        entity:
          schema: { text: string }
        operations:
          transit:
            input: { text: . }
        receivers:
          chat.rooms.opened:
            binding: amqp
            operation: transit
        """);

    assertThat(manifest.receivers()).hasSize(1);
  }

  @Test
  void jsonSchema_givesTheSame_withTypeObjectOrWithout() {
    EntityDeclaration entity =
        entity(
            """
          schema:
            properties:
              sender: { type: string, maxLength: 32 }
              read: { type: boolean }
            required: [sender]
        """);

    assertThat(entity.properties().path("sender"))
        .isEqualTo(json("{\"type\":\"string\",\"maxLength\":32}"));
    assertThat(entity.required()).containsExactly("sender");
  }

  @Test
  void schemaAndProperties_bothDeclared_areRefused() {
    ManifestException e =
        Fixtures.refused(
            () -> entity("  schema: { text: string }\n  properties: { text: string }\n"),
            "manifest.toa.yaml",
            "entity.properties");

    assertThat(e)
        .hasMessageContaining(
            "declared by schema (Toa's older form) and by properties; keep one of them");
  }

  @Test
  void schemaWithAKeywordTheEntityHasNoPlaceFor_isRefused() {
    ManifestException e =
        Fixtures.refused(
            () ->
                entity(
                    "  schema: { type: object, properties: { text: { type: string } }, minProperties: 1 }\n"),
            "manifest.toa.yaml",
            "entity.schema");

    assertThat(e).hasMessageContaining("'minProperties' of an entity's schema has no place");
  }
}
