package test.precompiled;

/** The entity of a component compiled with the tests, found on the class path at boot. */
public class Stamp extends io.toa4j.api.Entry {
  public long count;
}
