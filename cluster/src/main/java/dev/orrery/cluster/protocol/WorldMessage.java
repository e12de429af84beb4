package dev.orrery.cluster.protocol;

/**
 * Every message of the world protocol; the node's configuration binds it to
 * {@link ProtocolSerializer}.
 */
public interface WorldMessage {
}
