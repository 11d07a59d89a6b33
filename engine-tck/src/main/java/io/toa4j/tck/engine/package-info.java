/**
 * The engine kit's suites that run whole contexts on a pair of engines: each an abstract JUnit
 * class that an engine's test extends, choosing the engines by the runtime's {@link
 * io.toa4j.runtime.Options} (their {@code TOA_*} environment). The contexts they boot are {@link
 * io.toa4j.tck.contexts.Contexts}'.
 */
package io.toa4j.tck.engine;
