package io.toa4j.runtime;

/** Tasks through the outbox on the embedded engines: SQLite files and the embedded bus. */
class TaskOutboxTest extends TaskOutboxContract {
  @Override
  Options options() {
    return Options.defaults();
  }
}
