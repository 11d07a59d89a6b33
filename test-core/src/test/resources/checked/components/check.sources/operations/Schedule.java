package check.sources.operations;

import io.toa4j.api.Context;
import io.toa4j.api.Effect;
import io.toa4j.api.Request;
import java.util.Map;

/** Sends the note to the sink's one record, as a task nobody waits for. */
public class Schedule implements Effect<Schedule.Input> {
  public record Input(String note) {}

  @Override
  public Object effect(Input input, Context context) {
    context.remote("check.sinks").task("absorb", Request.of("5e0f1a2b3c4d5e6f708192a3b4c5d6e7", Map.of("note", input.note())));
    return null;
  }
}
