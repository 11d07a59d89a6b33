package io.toa4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Request;
import io.toa4j.manifest.ManifestException;
import io.toa4j.tck.contexts.Contexts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A component's {@code configuration}, as Toa declares it: the schema and defaults in the manifest,
 * the values in the context file and the environment, secrets from the environment, read by an
 * operation through its context, and a start refused when the values do not fit.
 */
class ConfigurationTest {
  @TempDir Path directory;

  /** {@code test.limits}, whose {@code show} answers its configuration as it reads it. */
  private Path limits(String configuration, String context) {
    Contexts.write(directory, "context.toa.yaml", "name: test\n" + context);
    Contexts.write(
        directory,
        "components/test.limits/manifest.toa.yaml",
        """
        operations:
          show:
            type: computation
        configuration:
        %s
        """
            .formatted(configuration.indent(2).stripTrailing()));
    Contexts.write(
        directory,
        "components/test.limits/operations/Show.java",
        """
        package test.limits.operations;
        import io.toa4j.api.*;
        import java.util.List;
        import java.util.Map;
        public class Show implements Computation<Void> {
          public record Limits(long rounds, String pepper, String key, Map<String, Object> cache, List<String> names) {}
          public Object computation(Void input, Context context) {
            Limits limits = context.configuration(Limits.class);
            return Map.of("rounds", limits.rounds(), "pepper", limits.pepper(), "key", String.valueOf(limits.key()),
                "cache", String.valueOf(new java.util.TreeMap<>(limits.cache())), "names", String.valueOf(limits.names()));
          }
        }
        """);
    return directory;
  }

  private static final String SCHEMA =
      """
      rounds: 10
      pepper: ''
      key*: string
      cache:
        max: 1024
        ttl: 0
      names: [string]
      """;

  private Map<String, Object> shown(Map<String, String> environment) {
    try (Toa app =
        Toa.builder()
            .directory(directory)
            .options(Options.defaults().withEnvironment(environment))
            .build()) {
      return Shop.output(app.call("test.limits.show", Request.empty()));
    }
  }

  @Test
  void concise_defaultsUnderTheContext_underTheEnvironment_mergedPropertyByProperty() {
    limits(
        SCHEMA,
        """
        configuration:
          test.limits:
            key: from-context
            cache: { ttl: 60 }
            names: [a, b]
        """);

    assertThat(shown(Map.of()))
        .containsEntry("rounds", 10L)
        .containsEntry("pepper", "")
        .containsEntry("key", "from-context")
        .containsEntry("cache", "{max=1024, ttl=60}")
        .containsEntry("names", "[a, b]");

    String json = "{\"rounds\": 12, \"cache\": {\"max\": 8}}";
    Map<String, Object> overridden = shown(Map.of("TOA_CONFIGURATION_TEST_LIMITS", json));
    assertThat(overridden)
        .containsEntry("rounds", 12L)
        .containsEntry("key", "from-context")
        .containsEntry("cache", "{max=8, ttl=60}");

    String base64 =
        Base64.getEncoder()
            .encodeToString("{\"pepper\": \"salt\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(shown(Map.of("TOA_CONFIGURATION_TEST_LIMITS", base64)))
        .containsEntry("pepper", "salt")
        .containsEntry("rounds", 10L);
  }

  @Test
  void schemaAndDefaults_form_andASecretReadFromTheEnvironment() {
    limits(
        """
        schema:
          rounds: number
          pepper: string
          key: string
          cache: { type: object }
          names: [string]
        defaults:
          rounds: 3
          pepper: none
          cache: {}
          names: []
        """,
        """
        configuration:
          test.limits:
            key: $SIGNING_KEY
        """);

    assertThat(shown(Map.of("TOA_CONFIGURATION__SIGNING_KEY", "s3cret")))
        .containsEntry("rounds", 3L)
        .containsEntry("pepper", "none")
        .containsEntry("key", "s3cret");
    assertThatThrownBy(() -> shown(Map.of()))
        .isInstanceOf(StartupException.class)
        .hasMessageContainingAll(
            "test.limits", "$SIGNING_KEY", "/key", "TOA_CONFIGURATION__SIGNING_KEY is not set");
  }

  @Test
  void valuesThatDoNotFit_refuseTheStart_namingTheComponentAndTheProperty() {
    limits(
        SCHEMA,
        """
        configuration:
          test.limits:
            key: k
            rounds: many
        """);

    assertThatThrownBy(() -> shown(Map.of()))
        .isInstanceOf(StartupException.class)
        .hasMessageContainingAll(
            "The configuration of test.limits does not fit its schema",
            "/rounds",
            "TOA_CONFIGURATION_TEST_LIMITS");
    Map<String, String> environment = new HashMap<>();
    environment.put("TOA_CONFIGURATION_TEST_LIMITS", "[1, 2]");
    limits(SCHEMA, "");
    assertThatThrownBy(() -> shown(environment))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(
            "TOA_CONFIGURATION_TEST_LIMITS (the configuration of test.limits) is neither a JSON object nor one in base64");
    assertThatThrownBy(() -> shown(Map.of()))
        .as("key is a required string, given nowhere")
        .isInstanceOf(StartupException.class)
        .hasMessageContainingAll("test.limits", "key");
  }

  @Test
  void contextValues_forAComponentWithoutConfiguration_areRefusedWhereWritten() {
    limits(
        SCHEMA,
        """
        configuration:
          test.other:
            key: k
        """);

    assertThatThrownBy(() -> Toa.builder().directory(directory).build())
        .isInstanceOf(ManifestException.class)
        .hasMessageContainingAll(
            "configuration.test.other",
            "'test.other' names no component of this context that declares a configuration");
  }

  @Test
  void anOperationOfAComponentWithoutConfiguration_isToldSo() {
    Contexts.write(directory, "context.toa.yaml", "name: test\n");
    Contexts.write(
        directory,
        "components/test.bare/manifest.toa.yaml",
        "operations:\n  show:\n    type: computation\n");
    Contexts.write(
        directory,
        "components/test.bare/operations/Show.java",
        """
        package test.bare.operations;
        import io.toa4j.api.*;
        public class Show implements Computation<Void> {
          public Object computation(Void input, Context context) {
            return context.configuration(java.util.Map.class);
          }
        }
        """);
    try (Toa app = Toa.builder().directory(directory).build()) {
      assertThatThrownBy(() -> app.call("test.bare.show", Request.empty()))
          .hasMessageContaining("test.bare declares no configuration");
    }
  }

  @Test
  void theVariable_isTheLabelInCapitals() {
    assertThat(Configurations.variable("billing.wallets"))
        .isEqualTo("TOA_CONFIGURATION_BILLING_WALLETS");
    assertThat(Configurations.variable("default.top-ups"))
        .isEqualTo("TOA_CONFIGURATION_DEFAULT_TOP_UPS");
  }

  @Test
  void state_isOneMapTheComponentsOperationsShare_andAComponentWithoutIt_isToldSo() {
    Contexts.write(directory, "context.toa.yaml", "name: test\n");
    Contexts.write(
        directory,
        "components/test.counter/manifest.toa.yaml",
        """
        state: ~
        operations:
          count: { type: effect }
          read: { type: computation }
        """);
    Contexts.write(
        directory,
        "components/test.counter/operations/Count.java",
        """
        package test.counter.operations;
        import io.toa4j.api.*;
        public class Count implements Effect<Void> {
          public Object effect(Void input, Context context) {
            return context.state().merge("counted", 1L, (a, b) -> (Long) a + (Long) b);
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.counter/operations/Read.java",
        """
        package test.counter.operations;
        import io.toa4j.api.*;
        public class Read implements Computation<Void> {
          public Object computation(Void input, Context context) {
            return context.state().getOrDefault("counted", 0L);
          }
        }
        """);
    Contexts.write(
        directory,
        "components/test.bare/manifest.toa.yaml",
        "operations:\n  read:\n    type: computation\n");
    Contexts.write(
        directory,
        "components/test.bare/operations/Read.java",
        """
        package test.bare.operations;
        import io.toa4j.api.*;
        public class Read implements Computation<Void> {
          public Object computation(Void input, Context context) {
            return context.state().size();
          }
        }
        """);
    try (Toa app = Toa.builder().directory(directory).build()) {
      app.call("test.counter.count", Request.empty());
      app.call("test.counter.count", Request.empty());
      assertThat(
              ((io.toa4j.api.Reply.Output) app.call("test.counter.read", Request.empty())).value())
          .contains(2L);
      assertThatThrownBy(() -> app.call("test.bare.read", Request.empty()))
          .hasMessageContaining("test.bare declares no state");
    }
    try (Toa again = Toa.builder().directory(directory).build()) {
      assertThat(
              ((io.toa4j.api.Reply.Output) again.call("test.counter.read", Request.empty()))
                  .value())
          .as("in memory: a new start begins empty")
          .contains(0L);
    }
  }
}
