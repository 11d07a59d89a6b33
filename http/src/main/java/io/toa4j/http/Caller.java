package io.toa4j.http;

/**
 * Who makes a request, once its credentials are checked: an identity that proved itself, or {@link
 * #ANONYMOUS} when the request carries no credentials (only anonymous routes admit it).
 *
 * @param id the identity's id, 32 hexadecimal characters; empty for the anonymous caller
 * @param name the identity's name; empty for the anonymous caller
 */
record Caller(String id, String name) {
  static final Caller ANONYMOUS = new Caller("", "");

  boolean anonymous() {
    return id.isEmpty();
  }
}
