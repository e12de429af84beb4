package dev.orrery.cluster.sharding;

import dev.orrery.cluster.protocol.WorldMessage;

/** A message a sharded world entity receives: the node builds them, never a user. */
public interface WorldCommand extends WorldMessage {
}
