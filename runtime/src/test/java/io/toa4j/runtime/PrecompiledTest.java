package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Request;
import io.toa4j.manifest.ComponentManifest;
import io.toa4j.manifest.Manifests;
import io.toa4j.spi.Storage;
import io.toa4j.spi.Store;
import io.toa4j.tck.contexts.Contexts;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrecompiledTest {
  static final String ID = "0123456789abcdef0123456789abcdef";

  @TempDir Path directory;

  @Test
  void componentWithoutSources_isFoundOnTheClassPathUnderItsPackage() {
    Contexts.write(directory, "context.toa.yaml", "name: test\n");
    Contexts.write(
        directory,
        "components/test.precompiled/manifest.toa.yaml",
        """
        entity:
          associated: true
          properties:
            count: { type: integer }
        operations:
          touch:
            query: true
        """);
    try (Toa app = Toa.builder().directory(directory).build()) {
      app.call("test.precompiled.touch", Request.id(ID));

      assertThat(Shop.output(app.call("test.precompiled.touch", Request.id(ID))))
          .containsEntry("count", 2L)
          .containsEntry("VERSION", 2L);
    }
  }

  @Test
  void eventListedInTheManifest_ofAComponentOnTheClassPath_isItsClass() {
    ComponentManifest manifest =
        Manifests.readComponent(
            """
        entity:
          properties:
            count: { type: integer }
        events:
          touched:
          stamped:
        """,
            "test.precompiled",
            "code:test.precompiled");
    Announcements events =
        Announcements.bind(manifest, ComponentCode.load(manifest, directory.resolve("classes")));

    assertThat(events.get("touched").orElseThrow().code())
        .as("its class, test.precompiled.events.Touched")
        .isPresent();
    assertThat(events.get("touched").orElseThrow().entity()).contains(test.precompiled.Stamp.class);
    assertThat(events.get("stamped").orElseThrow().code()).as("no class: on every write").isEmpty();
  }

  @Test
  void onceOrConsumedEvents_onAStorageWithoutTransactions_refuseToBoot() {
    Storage flimsy =
        new Storage() {
          @Override
          public Store store(String component) {
            throw new UnsupportedOperationException();
          }

          @Override
          public boolean transactional() {
            return false;
          }

          @Override
          public String describe() {
            return "a storage without transactions";
          }

          @Override
          public void close() {}
        };

    assertThatThrownBy(() -> Assembly.requireTransactions("billing.wallets", true, false, flimsy))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("billing.wallets declares once")
        .hasMessageContaining("a storage without transactions");
    assertThatThrownBy(() -> Assembly.requireTransactions("billing.topups", false, true, flimsy))
        .hasMessageContaining("billing.topups announces events that are consumed");
    Assembly.requireTransactions("billing.topups", false, false, flimsy);
  }
}
