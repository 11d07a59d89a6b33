package io.toa4j.runtime;

/** Redelivery on the embedded engines: SQLite files and the embedded bus. */
class RedeliveryTest extends RedeliveryContract {
  @Override
  Options options() {
    return Options.defaults();
  }
}
