/**
 * The exposition gateway: every component's {@code exposition} routes served over HTTP on Jetty 12,
 * mounted under {@code /<namespace>/<name>/} ({@code /<name>/} in the default namespace). {@link
 * io.toa4j.http.Gateway} is the entry point; every outcome maps to a status in one table ({@code
 * Statuses}).
 */
package io.toa4j.http;
