/**
 * The {@code Idempotency-Key} contract apart from any server: {@link
 * io.toa4j.idempotency.IdempotentCalls} reads the key, derives the call identity from the key, the
 * caller, the method and the route, guards a key in flight, and tells the headers to answer with;
 * the HTTP gateway (Jetty) and the Spring MVC support each put it on their own requests.
 */
package io.toa4j.idempotency;
