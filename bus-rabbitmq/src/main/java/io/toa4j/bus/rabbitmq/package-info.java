/**
 * The RabbitMQ bus: durable queues on a broker, publisher confirms, manual acknowledgements, a
 * retry queue per queue and one parked queue. {@link io.toa4j.bus.rabbitmq.RabbitBusProvider} is
 * the only public type; the module's README holds the design.
 */
package io.toa4j.bus.rabbitmq;
