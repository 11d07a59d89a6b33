package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Toa;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * What the {@code toa.*} properties build, and how a start-up with properties that do not fit
 * fails.
 */
class PropertiesTest {
  @TempDir Path state;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ToaAutoConfiguration.class))
        .withPropertyValues("toa.state=" + state);
  }

  @Test
  void noComponents_failsNamingTheProperties() {
    runner()
        .withPropertyValues("toa.name=test")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("toa.directory or toa.components must be set"));
  }

  @Test
  void componentsWithoutAName_failsNamingTheProperty() {
    runner()
        .withPropertyValues("toa.components=test.wallets")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("toa.name must be set"));
  }

  @Test
  void aComponentNotOnTheClassPath_failsNamingItsManifest() {
    runner()
        .withPropertyValues("toa.name=test", "toa.components=test.nowhere")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("no test/nowhere/manifest.toa.yaml on the class path"));
  }

  @Test
  void anEngineOptionTheEngineDoesNotKnow_isRefusedByName() {
    runner()
        .withPropertyValues(
            "toa.name=test",
            "toa.components=test.wallets",
            "toa.storage.engine=sqlite",
            "toa.storage.options.colour=blue")
        .run(
            context -> assertThat(context).getFailure().rootCause().hasMessageContaining("colour"));
  }

  @Test
  void anEnginesOptionsWithoutTheEngine_areRefusedNamingThemAndTheWayOut() {
    runner()
        .withPropertyValues(
            "toa.name=test",
            "toa.components=test.wallets",
            "toa.storage.options.url=jdbc:postgresql://db/shop",
            "toa.storage.options.pool-size=4")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(
                        "toa.storage.options.pool-size, toa.storage.options.url are set, and no engine is named for them: set toa.storage.engine"));
    runner()
        .withPropertyValues(
            "toa.name=test", "toa.components=test.wallets", "toa.bus.url=amqp://broker")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(
                        "toa.bus.url is set, and no engine is named for them: set toa.bus.engine (embedded or rabbitmq)"));
  }

  @Test
  void aNameThatIsNoneOfTheStarters_isRefusedNamingIt() {
    runner()
        .withPropertyValues(
            "toa.name=test",
            "toa.components=test.wallets",
            "toa.storage.engin=sqlite",
            "toa.gateway.enable=true")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining(
                        "toa.gateway.enable, toa.storage.engin are not a property of toa4j's starter")
                    .hasMessageContaining("toa.storage.engine"));
  }

  @Test
  void everyNameTheStarterKnows_inEitherSpelling_starts() {
    runner()
        .withPropertyValues(
            "toa.name=test",
            "toa.components[0]=test.wallets",
            "toa.host=test.wallets",
            "toa.storage.engine=sqlite",
            "toa.storage.options.path=" + state.resolve("records"),
            "toa.bus=embedded",
            "toa.gateway.enabled=false",
            "toa.gateway.address=127.0.0.1:0",
            "toa.gateway.operatorRole=ops",
            "toa.idempotency.attach=1s")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void theProcesssEnvironment_isNotReadForNames() {
    // TOA_REQUIRE_SERVERS and TOA_POSTGRES_URL are the tests' and the tools' variables, not the
    // starter's
    runner()
        .withPropertyValues("toa.name=test", "toa.components=test.wallets")
        .withInitializer(
            context ->
                context
                    .getEnvironment()
                    .getPropertySources()
                    .replace(
                        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        new SystemEnvironmentPropertySource(
                            StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                            Map.of(
                                "TOA_REQUIRE_SERVERS",
                                "1",
                                "TOA_POSTGRES_URL",
                                "jdbc:postgresql://127.0.0.1/test"))))
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void engineAndOptions_reachTheEngine() {
    runner()
        .withPropertyValues(
            "toa.name=test",
            "toa.components=test.wallets",
            "toa.storage.engine=sqlite",
            "toa.storage.options.path=" + state.resolve("records"),
            "toa.bus.engine=embedded")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(Toa.class).describe())
                  .contains(state.resolve("records").toString());
            });
  }

  @Test
  void
      toaStorageAndUrl_asTheEnvironmentsTOA_STORAGEAndTOA_STORAGE_URLSetThem_nameTheEngineAndItsUrl() {
    Path records = state.resolve("by-url");
    runner()
        .withPropertyValues(
            "toa.name=test",
            "toa.components=test.wallets",
            "toa.storage=sqlite",
            "toa.storage.url=" + records)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .as("sqlite takes path, not url: the url reached it")
                    .hasMessageContaining("url"));
    runner()
        .withPropertyValues(
            "toa.name=test",
            "toa.components=test.wallets",
            "toa.bus=embedded",
            "toa.storage=sqlite")
        .run(context -> assertThat(context).hasNotFailed());
  }

  @Test
  void aContextFolder_isReadWithItsComponents() {
    Path folder = state.resolve("shop");
    Folders.write(folder.resolve("context.toa.yaml"), "name: shop\n");
    Folders.write(
        folder.resolve("components/test.notes/manifest.toa.yaml"),
        """
        entity:
          properties: { text: { type: string } }
        operations: {}
        """);
    runner()
        .withPropertyValues("toa.directory=" + folder, "toa.host=test.notes")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(Toa.class).context().name()).isEqualTo("shop");
              assertThat(context.getBean(Toa.class).hosted()).containsExactly("test.notes");
            });
  }

  @Test
  void aGatewayAddressWithoutAPort_failsNamingTheProperty() {
    runner()
        .withPropertyValues(
            "toa.name=test",
            "toa.components=test.wallets",
            "toa.gateway.enabled=true",
            "toa.gateway.address=localhost")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("toa.gateway.address is 'localhost'"));
  }
}
