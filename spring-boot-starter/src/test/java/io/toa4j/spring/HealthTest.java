package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.toa4j.runtime.Toa;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code toa} health contributor, up and down, on the real embedded engine. */
class HealthTest {
  @TempDir Path state;

  @Test
  void up_whileTheEnginesAnswer_downWithTheReasonOnceTheyDoNot() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ToaAutoConfiguration.class))
        .withPropertyValues("toa.name=test", "toa.components=test.wallets", "toa.state=" + state)
        .run(
            context -> {
              HealthIndicator indicator =
                  context.getBean("toaHealthIndicator", HealthIndicator.class);
              Health up = indicator.health();

              context.getBean(Toa.class).close(); // the storage and the bus are gone
              Health down = indicator.health();

              assertThat(up.getStatus()).isEqualTo(Status.UP);
              assertThat(up.getDetails())
                  .containsEntry("outboxBacklog", 0L)
                  .containsEntry("parked", 0L);
              assertThat(down.getStatus()).isEqualTo(Status.DOWN);
              assertThat(down.getDetails().get("reason")).asString().contains("does not answer");
            });
  }
}
