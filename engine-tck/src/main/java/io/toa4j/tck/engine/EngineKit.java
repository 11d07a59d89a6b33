package io.toa4j.tck.engine;

import java.nio.file.Path;
import org.junit.jupiter.api.Nested;

/**
 * Every engine-level suite of the kit on the engines a test names: an engine's whole conformance in
 * a few lines.
 *
 * <pre>{@code
 * class MyEnginesTest extends EngineKit {
 *   protected Engines engines() {
 *     return new Engines("mine", Map.of("url", "..."), "rabbitmq", Map.of("url", "..."));
 *   }
 *
 *   protected long[] ledgerInbox(Path directory) throws Exception {
 *     ... // count test.ledger's inbox entries, and those holding an answer
 *   }
 * }
 * }</pre>
 *
 * <p>Each suite is a {@link Nested} class of this one, run as part of the test. A test whose
 * engines need something of their own for each test (a database, a virtual host) registers an
 * extension in its class; its callbacks run around the nested suites' tests too.
 */
public abstract class EngineKit {
  /** The engines under test; {@link #engines()} is asked again by every test. */
  protected abstract Engines engines();

  /**
   * How many inbox entries the store of the component {@code test.ledger} holds, and how many of
   * them still hold their answer, counted by the engine's own means.
   *
   * @param directory the test's folder, where the context and its state folder {@code .toa} are
   */
  protected abstract long[] ledgerInbox(Path directory) throws Exception;

  /** {@link TurnsContract} on the test's engines. */
  @Nested
  class Turns extends TurnsContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link LateRepeatContract} on the test's engines. */
  @Nested
  class LateRepeat extends LateRepeatContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }

    @Override
    protected long[] inbox() throws Exception {
      return ledgerInbox(directory);
    }
  }

  /** {@link RedeliveryContract} on the test's engines. */
  @Nested
  class Redelivery extends RedeliveryContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link TaskOutboxContract} on the test's engines. */
  @Nested
  class TaskOutbox extends TaskOutboxContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link PublishingTogetherContract} on the test's engines. */
  @Nested
  class PublishingTogether extends PublishingTogetherContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link BackpressureContract} on the test's engines. */
  @Nested
  class Backpressure extends BackpressureContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link ParkedEventsContract} on the test's engines. */
  @Nested
  class ParkedEvents extends ParkedEventsContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link TransitionsContract} on the test's engines. */
  @Nested
  class Transitions extends TransitionsContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link ConcurrencyContract} on the test's engines. */
  @Nested
  class Concurrency extends ConcurrencyContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link ReceiversContract} on the test's engines. */
  @Nested
  class Receivers extends ReceiversContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link OnceContract} on the test's engines. */
  @Nested
  class Once extends OnceContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }

    @Override
    protected long[] inbox() throws Exception {
      return ledgerInbox(directory);
    }
  }

  /** {@link TracingContract} on the test's engines. */
  @Nested
  class Tracing extends TracingContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }

  /** {@link CrashSafetyContract} on the test's engines. */
  @Nested
  class CrashSafety extends CrashSafetyContract {
    @Override
    protected Engines engines() {
      return EngineKit.this.engines();
    }
  }
}
