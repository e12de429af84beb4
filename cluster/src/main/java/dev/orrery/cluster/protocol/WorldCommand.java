package dev.orrery.cluster.protocol;

/** A message a sharded world entity receives. */
public interface WorldCommand extends WorldMessage {
}
