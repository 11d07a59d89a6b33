package io.toa4j.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes an {@code Idempotency-Key} required on the route of the controller method whose {@link
 * IdempotentCall} parameter it marks (or on the method itself): a request of an unsafe method (not
 * GET or HEAD) without one is answered 400 {@code IDEMPOTENCY_KEY_REQUIRED} when the method calls,
 * and nothing is called. The gateway's {@code io:idempotency-key: required}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.METHOD})
public @interface IdempotencyKeyRequired {}
