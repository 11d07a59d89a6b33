package io.toa4j.faults;

import io.toa4j.api.Failure;
import io.toa4j.api.Request;
import io.toa4j.runtime.Toa;
import io.toa4j.spi.UnreachableException;

/** Calls over the bus, as a client of the context that hosts nothing ({@link Toa#call}). */
final class BusCaller implements Caller {
  private final Toa client;

  BusCaller(Toa client) {
    this.client = client;
  }

  @Override
  public String call(String endpoint, Request request, String identity) throws Unanswered {
    try {
      return Caller.text(client.call(endpoint, request, identity));
    } catch (Failure e) {
      throw new Unanswered(e.code() + ": " + e.getMessage(), e);
    } catch (UnreachableException e) {
      // the client's bus is opened by its first call: a broker restarted just then is a call to
      // repeat
      throw new Unanswered("UNREACHABLE: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    // the client is the run's, which closes it
  }
}
