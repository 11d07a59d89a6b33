package io.toa4j.runtime;

import io.toa4j.api.Attempt;
import io.toa4j.api.Context;
import io.toa4j.api.Remote;
import java.util.Optional;
import java.util.function.Function;

/**
 * The marks around an effect declared {@code external}: its attempt is marked started, in a commit
 * of its own, before it runs, and the mark removed once it ended (answered, refused or threw), so
 * that an attempt whose process died in between leaves its mark.
 *
 * <p>Invariants: the mark is removed on every way out of the run, {@code Error} included (a {@code
 * finally}); the next attempt's context tells the operation of the attempts whose outcome is
 * unknown ({@link Context#previous()}); past the operation's allowance the call fails {@code
 * OUTCOME_UNKNOWN} without running ({@link Attempts#start}), a permanent failure that parks its
 * message. Thread-safe.
 */
final class Externals {
  private final Attempts attempts;

  Externals(Attempts attempts) {
    this.attempts = attempts;
  }

  /**
   * Runs the effect between its marks.
   *
   * @param effect runs the operation with the contexts given: those of the call, or ones that tell
   *     of the attempts before it
   */
  Result run(
      Component component,
      Operation operation,
      Invocation call,
      Engine.Contexts contexts,
      Function<Engine.Contexts, Result> effect) {
    String endpoint = component.label() + "." + operation.name();
    Attempts.Started started =
        attempts.start(endpoint, call.identity(), operation.declaration().external().getAsInt());
    Engine.Contexts told =
        started.previous().isEmpty()
            ? contexts
            : (c, outgoing) ->
                new Reconciling(contexts.open(c, outgoing), started.previous().get());
    try {
      return effect.apply(told);
    } finally {
      attempts.ended(started);
    }
  }

  /** A context that tells its operation of the attempts before it whose outcome is unknown. */
  private record Reconciling(Context context, Attempt attempt) implements Context {
    @Override
    public Remote remote(String component) {
      return context.remote(component);
    }

    @Override
    public String identity() {
      return context.identity();
    }

    @Override
    public Optional<Attempt> previous() {
      return Optional.of(attempt);
    }

    @Override
    public <T> T configuration(Class<T> type) {
      return context.configuration(type);
    }

    @Override
    public java.util.concurrent.ConcurrentMap<String, Object> state() {
      return context.state();
    }
  }
}
