package io.toa4j.manifest;

/**
 * One entry of a component's {@code receivers}: an event of some component mapped to a local
 * operation.
 *
 * @param label the event, {@code namespace.name.event}
 * @param operation the local operation the event is delivered to
 * @param path where it is declared
 */
public record ReceiverDeclaration(String label, String operation, Location path) {}
