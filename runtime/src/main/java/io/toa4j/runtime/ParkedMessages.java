package io.toa4j.runtime;

import io.toa4j.manifest.Manifests;
import io.toa4j.spi.Bus;
import io.toa4j.spi.Parked;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A context's parked messages, reached through its bus alone: no component is booted and nothing
 * is consumed, so it can be opened beside a running context. A replayed message is handled by
 * whichever process consumes its queue, now or when one next runs.
 */
public final class ParkedMessages implements AutoCloseable {
  private final Bus bus;

  private ParkedMessages(Bus bus) {
    this.bus = bus;
  }

  /**
   * Opens the bus of the context in the folder.
   *
   * @throws io.toa4j.manifest.ManifestException when the context does not fit
   */
  public static ParkedMessages open(Path contextDirectory) {
    return new ParkedMessages(Engines.bus(Manifests.loadContext(contextDirectory), System.getenv(), Clock.systemUTC()));
  }

  /** The parked messages, oldest first. */
  public List<Parked> list() {
    return bus.parked();
  }

  /** Puts one back on its queue, due now; false when no parked message has that id. */
  public boolean replay(String id) {
    return bus.replay(id);
  }

  /** Puts every parked message back; answers how many. */
  public int replayAll() {
    int n = 0;
    for (Parked parked : bus.parked()) if (bus.replay(parked.id())) n++;
    return n;
  }

  @Override
  public void close() {
    bus.close();
  }
}
