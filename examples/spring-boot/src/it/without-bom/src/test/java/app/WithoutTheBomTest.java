package app;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;

/** Under Boot's Jackson 3.1 the application does not start, and says how to get toa4j's Jackson. */
class WithoutTheBomTest {
  @Test
  void startingIsRefused_namingTheBom() {
    assertThatThrownBy(() -> SpringApplication.run(TalliesApplication.class, "--server.port=0", "--toa.state=target/toa-state"))
        .rootCause()
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("toa4j reads YAML with Jackson 3.3 or newer, and this application has jackson-dataformat-yaml 3.1.")
        .hasMessageContaining("import io.toa4j:toa4j-bom");
  }
}
