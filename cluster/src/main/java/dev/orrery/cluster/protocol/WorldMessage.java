package dev.orrery.cluster.protocol;

/**
 * Every message of the world protocol, the replies here and the node's own commands to a
 * world; the node's configuration binds it to the protocol's serializer.
 */
public interface WorldMessage {
}
