package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Toa;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** What the {@code toa.*} properties build, and how a start-up with properties that do not fit fails. */
class PropertiesTest {
  @TempDir Path state;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ToaAutoConfiguration.class))
        .withPropertyValues("toa.state=" + state);
  }

  @Test
  void noComponents_failsNamingTheProperties() {
    runner().withPropertyValues("toa.name=test").run(context -> assertThat(context).getFailure()
        .rootCause().hasMessageContaining("toa.directory or toa.components must be set"));
  }

  @Test
  void componentsWithoutAName_failsNamingTheProperty() {
    runner().withPropertyValues("toa.components=test.wallets").run(context -> assertThat(context).getFailure()
        .rootCause().hasMessageContaining("toa.name must be set"));
  }

  @Test
  void aComponentNotOnTheClassPath_failsNamingItsManifest() {
    runner().withPropertyValues("toa.name=test", "toa.components=test.nowhere").run(context -> assertThat(context).getFailure()
        .rootCause().hasMessageContaining("no test/nowhere/manifest.toa.yaml on the class path"));
  }

  @Test
  void anEngineOptionTheEngineDoesNotKnow_isRefusedByName() {
    runner().withPropertyValues("toa.name=test", "toa.components=test.wallets", "toa.storage.engine=sqlite", "toa.storage.options.colour=blue")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("colour"));
  }

  @Test
  void engineAndOptions_reachTheEngine() {
    runner().withPropertyValues("toa.name=test", "toa.components=test.wallets", "toa.storage.engine=sqlite",
            "toa.storage.options.path=" + state.resolve("records"), "toa.bus.engine=embedded")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(Toa.class).describe()).contains(state.resolve("records").toString());
        });
  }

  @Test
  void toaStorageAndUrl_asTheEnvironmentsTOA_STORAGEAndTOA_STORAGE_URLSetThem_nameTheEngineAndItsUrl() {
    Path records = state.resolve("by-url");
    runner().withPropertyValues("toa.name=test", "toa.components=test.wallets", "toa.storage=sqlite", "toa.storage.url=" + records)
        .run(context -> assertThat(context).getFailure().rootCause().as("sqlite takes path, not url: the url reached it")
            .hasMessageContaining("url"));
    runner().withPropertyValues("toa.name=test", "toa.components=test.wallets", "toa.bus=embedded", "toa.storage=sqlite")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void aContextFolder_isReadWithItsComponents() {
    Path folder = state.resolve("shop");
    Folders.write(folder.resolve("context.toa.yaml"), "name: shop\n");
    Folders.write(folder.resolve("components/test.notes/manifest.toa.yaml"), """
        entity:
          properties: { text: { type: string } }
        operations: {}
        """);
    runner().withPropertyValues("toa.directory=" + folder, "toa.host=test.notes").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(Toa.class).context().name()).isEqualTo("shop");
      assertThat(context.getBean(Toa.class).hosted()).containsExactly("test.notes");
    });
  }

  @Test
  void aGatewayAddressWithoutAPort_failsNamingTheProperty() {
    runner().withPropertyValues("toa.name=test", "toa.components=test.wallets", "toa.gateway.enabled=true", "toa.gateway.address=localhost")
        .run(context -> assertThat(context).getFailure().rootCause().hasMessageContaining("toa.gateway.address is 'localhost'"));
  }
}
