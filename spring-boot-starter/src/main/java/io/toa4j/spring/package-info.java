/**
 * Toa inside a Spring Boot service: {@link io.toa4j.spring.ToaAutoConfiguration} builds the context
 * from {@code toa.*} properties; {@link io.toa4j.spring.IdempotentCall} gives Spring MVC
 * controllers the gateway's {@code Idempotency-Key} contract.
 */
package io.toa4j.spring;
