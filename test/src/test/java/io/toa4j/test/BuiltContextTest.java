package io.toa4j.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toa4j.api.Request;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A context built in code, its classes on the test class path; every event announced, consumed or
 * not.
 */
class BuiltContextTest {
  @RegisterExtension final ToaContext toa = ToaContext.built(Kit::context);

  @Test
  void aScenario_onComponentsDeclaredInCode() {
    assertThat(toa.call("kit.orders.place", Kit.place("book")))
        .has("item", "book")
        .has("VERSION", 1);
    toa.call("kit.orders.place", Kit.place("pen"));
    toa.settle();

    assertThat(toa.record("kit.orders", Kit.ORDER)).has("item", "book").hasVersion(1);
    assertThat(toa.events())
        .announcedExactly("kit.orders.created")
        .only("kit.orders.created")
        .has("item", "book");
    assertThat(toa.parked()).isEmpty();
  }

  @Test
  void anEventNoReceiverConsumes_isAnnouncedUnderTest() {
    toa.call("kit.orders.place", Kit.place("book"));
    toa.call("kit.orders.rename", Request.of(Kit.ORDER, Map.of("item", "atlas")));
    toa.settle();

    assertThat(toa.events()).announced("kit.orders.created", 1).announced("kit.orders.updated", 1);
    assertThat(toa.events().only("kit.orders.updated"))
        .has("item", "atlas")
        .wasAnnouncedAtVersion(2);
  }

  @Test
  void aComponentWithoutRecords_isRefusedByName() {
    assertThatThrownBy(() -> toa.record("kit.mailer", Kit.ORDER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("component kit.mailer keeps no records: it declares no entity");
  }

  @Test
  void aFolderWithoutAContext_isRefusedSayingWhatIsMissing() {
    assertThatThrownBy(() -> ToaContext.folder(java.nio.file.Path.of("no-such-folder")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no-such-folder holds no context.toa.yaml");
  }

  @Test
  void beforeItStarts_itSaysHow() {
    ToaContext unstarted = ToaContext.built(Kit::context);

    assertThatThrownBy(() -> unstarted.record("kit.orders", Kit.ORDER))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("register ToaContext with @RegisterExtension, or call start() first");
  }
}
