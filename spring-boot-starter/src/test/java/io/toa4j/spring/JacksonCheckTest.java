package io.toa4j.spring;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A Jackson without what toa4j needs is refused with the way out, before the context is built. */
class JacksonCheckTest {
  @Test
  void theBuildsJackson_passes() {
    assertThatCode(() -> JacksonCheck.require(getClass().getClassLoader()))
        .doesNotThrowAnyException();
  }

  @Test
  void aJacksonWithoutYamlSchema_isRefusedNamingItsVersionAndTheBom() {
    ClassLoader older =
        new ClassLoader(getClass().getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.equals(JacksonCheck.NEEDED)) throw new ClassNotFoundException(name);
            return super.loadClass(name, resolve);
          }
        };
    assertThatThrownBy(() -> JacksonCheck.require(older))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "toa4j reads YAML with Jackson 3.3 or newer, and this application has jackson-dataformat-yaml 3.")
        .hasMessageContaining("import io.toa4j:toa4j-bom");
  }
}
