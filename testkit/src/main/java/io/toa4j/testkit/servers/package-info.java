/**
 * Tests that need a server: {@link io.toa4j.testkit.servers.Needs} on a test class (or a test)
 * names the servers, which are looked for once per JVM. When one does not answer, the tests that
 * need it are not run, a banner says so at once, and {@link io.toa4j.testkit.servers.NotRunSummary}
 * lists them again at the end of the run; with {@code TOA_REQUIRE_SERVERS} set, as CI sets it, they
 * fail instead.
 */
package io.toa4j.testkit.servers;
